/* templates.h — internal to reporter/: the files of templates/, embedded at build time by embed.cmake.
 * The arrays are not NUL-terminated: use the lengths. */
#ifndef KC_TEMPLATES_H
#define KC_TEMPLATES_H

#include <stddef.h>

extern const unsigned char kc_tpl_report_html[];
extern const size_t kc_tpl_report_html_len;
extern const unsigned char kc_tpl_report_css[];
extern const size_t kc_tpl_report_css_len;
extern const unsigned char kc_tpl_report_js[];
extern const size_t kc_tpl_report_js_len;

#endif
