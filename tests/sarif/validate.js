#!/usr/bin/env node
// validate.js LOG... — check each SARIF log against both OASIS SARIF 2.1.0 schemas in schema/ (NOTICE.md):
// the one of the 2023 Errata 01 (draft-04, the standard as it stands) and the one first published (draft-07).
// Prints one line per log and schema; exit 0 when every log is valid against both, 1 when one is not (each
// error on a line of its own: the schema, the JSON pointer into the log, Ajv's message), 2 on a usage error
// or when the validator is not installed (scripts/install-deps installs it: npm ci in this directory).
'use strict';
const fs = require('fs');
const path = require('path');

function need(name) {
  try {
    return require(name);
  } catch (e) {
    console.error(`validate.js: cannot load '${name}' (${e.code || e.message}): run scripts/install-deps, ` +
                  `which runs npm ci in ${__dirname}`);
    process.exit(2);
  }
}

const Ajv07 = need('ajv').default;
const Ajv04 = need('ajv-draft-04').default;
const addFormats = need('ajv-formats').default;

// The first schema's language pattern ends in a stray ']' ("^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$", fixed by
// the errata), which a regular expression in Unicode mode (Ajv's default) rejects and plain ECMA-262 reads as a
// literal ']': that schema's patterns are compiled without the u flag.
const schemas = [
  {file: 'sarif-schema-2.1.0.json', Ajv: Ajv04, unicode: true},           // OASIS SARIF 2.1.0 Errata 01
  {file: 'sarif-schema-2.1.0-draft-07.json', Ajv: Ajv07, unicode: false}, // SARIF 2.1.0 as first published
];

const logs = process.argv.slice(2);
if (!logs.length) {
  console.error('usage: node validate.js LOG...');
  process.exit(2);
}

let invalid = 0;
for (const s of schemas) {
  const schema = JSON.parse(fs.readFileSync(path.join(__dirname, 'schema', s.file), 'utf8'));
  // strict: false: Ajv's strict mode refuses the schemas' own style (a property required where a sibling
  // schema, not this one, declares it), which JSON Schema allows
  const ajv = new s.Ajv({allErrors: true, strict: false, unicodeRegExp: s.unicode});
  addFormats(ajv);
  const validate = ajv.compile(schema);
  for (const log of logs) {
    let doc;
    try {
      doc = JSON.parse(fs.readFileSync(log, 'utf8'));
    } catch (e) {
      console.log(`${log}: not JSON: ${e.message}`);
      invalid++;
      continue;
    }
    if (validate(doc)) {
      console.log(`${log}: valid against ${s.file}`);
      continue;
    }
    invalid++;
    console.log(`${log}: INVALID against ${s.file}`);
    for (const e of validate.errors)
      console.log(`  ${e.instancePath || '/'}: ${e.message} (${e.schemaPath})`);
  }
}
process.exit(invalid ? 1 : 0);
