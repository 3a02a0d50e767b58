# layers.awk — the layering rules, checked on the #include lines of kcost's sources (run by check.sh, which
# passes the list of files first, then the files). Prints one line per problem naming the file, the line and
# the include, and exits 1 when there is any.
#
#  (a) layers: base < model < analyzer | runner | reporter < cli. A file includes headers of its own folder or
#      of a layer below; the three stages sit side by side and include none of each other's headers.
#  (b) libraries: <clang-c/...> only in analyzer/; Graphviz (<graphviz/...>, <gvc.h>, <cgraph.h>) only in
#      reporter/graph.c; cJSON only in the modules that read or write JSON (json_module below) and in cli/.
#  (c) no module cycles: a module is a .c/.h pair (folder/name); A depends on B when A.c or A.h includes B.h.
#
# A quoted include is looked for beside the including file, then by name among the files (as the build's include
# paths find it); one that names no file here (a header generated at build time) has no layer and is skipped.

BEGIN {
	rank["base"] = 0
	rank["model"] = 1
	rank["analyzer"] = 2
	rank["runner"] = 2
	rank["reporter"] = 2
	rank["cli"] = 3
	json_module["runner/ceilings"] = 1 # the cache of measured ceilings
	json_module["runner/child"] = 1    # the harness's result line, a JSON object on stdout
	json_module["runner/simcache"] = 1 # the cache of simulated counts
	json_module["reporter/json"] = 1   # report.json
	json_module["reporter/diff"] = 1   # kcost diff's reader of two report.json
	json_module["reporter/sarif"] = 1  # SARIF logs
	json_module["reporter/merge"] = 1  # kcost merge: several report.json and kcost.sarif as one
	problems = 0
}

# The list of files: what a quoted include can name.
FNR == NR {
	known[$0] = 1
	n_known++
	known_list[n_known] = $0
	node_of(module_of($0))
	next
}

/^[ \t]*#[ \t]*include[ \t]*[<"]/ {
	n_includes++
	check_include(FILENAME, FNR, $0)
}

END {
	find_cycles()
	if (problems) {
		printf "layers: %d problem%s in %d files\n", problems, problems == 1 ? "" : "s", n_known
		exit 1
	}
	printf "layers: ok (%d files, %d includes, %d modules)\n", n_known, n_includes, n_nodes
}

function problem(where, text)
{
	print "layers: " where ": " text
	problems++
}

function layer_of(path)
{
	sub(/\/.*/, "", path)
	return path
}

function module_of(path)
{
	sub(/\.[ch]$/, "", path)
	return path
}

function check_include(file, line, text,    spec, name, where, target, a, b)
{
	match(text, /[<"][^>"]*[>"]/)
	spec = substr(text, RSTART, RLENGTH)
	name = substr(spec, 2, length(spec) - 2)
	where = file ":" line
	check_library(file, where, spec, name)
	if (substr(spec, 1, 1) == "<")
		return
	target = resolve(file, name, where)
	if (target == "")
		return
	a = layer_of(file)
	b = layer_of(target)
	if (a != b && rank[b] > rank[a])
		problem(where, "includes " spec " (" target "): " b "/ is a layer above " a "/")
	else if (a != b && rank[b] == rank[a])
		problem(where, "includes " spec " (" target "): " b "/ is a stage beside " a "/; stages share only base/ and model/")
	add_edge(module_of(file), module_of(target), where " includes " spec)
}

function check_library(file, where, spec, name)
{
	if (name ~ /^clang-c\// && layer_of(file) != "analyzer")
		problem(where, "includes " spec ": only analyzer/ uses libclang")
	if ((name ~ /^graphviz\// || name == "gvc.h" || name == "cgraph.h") && file != "reporter/graph.c")
		problem(where, "includes " spec ": only reporter/graph.c uses Graphviz")
	if (name ~ /(^|\/)cJSON\.h$/ && layer_of(file) != "cli" && !(module_of(file) in json_module))
		problem(where, "includes " spec ": only the JSON modules (runner/ceilings, runner/child, runner/simcache, " \
		        "reporter/json, reporter/diff, reporter/sarif, reporter/merge) and cli/ use cJSON")
}

# The file a quoted include names: beside the includer, else the one file of that name (or path tail).
function resolve(file, name, where,    beside, i, found, n_found, tail)
{
	beside = file
	sub(/[^\/]*$/, "", beside)
	beside = normalize(beside name)
	if (beside in known)
		return beside
	tail = "/" name
	for (i = 1; i <= n_known; i++)
		if (substr(known_list[i], length(known_list[i]) - length(tail) + 1) == tail) {
			found = found (n_found ? ", " : "") known_list[i]
			n_found++
		}
	if (n_found > 1)
		problem(where, "includes \"" name "\", which names several files (" found "): give headers distinct names")
	return n_found == 1 ? found : ""
}

# a/./b/../c -> a/c
function normalize(path,    parts, n, i, out, depth, kept)
{
	n = split(path, parts, "/")
	depth = 0
	for (i = 1; i <= n; i++) {
		if (parts[i] == "." || parts[i] == "")
			continue
		if (parts[i] == ".." && depth > 0)
			depth--
		else
			kept[++depth] = parts[i]
	}
	out = ""
	for (i = 1; i <= depth; i++)
		out = out (i > 1 ? "/" : "") kept[i]
	return out
}

# --- the module graph ----------------------------------------------------------------------------------------

function node_of(m)
{
	if (!(m in node_id)) {
		node_id[m] = ++n_nodes
		node_name[n_nodes] = m
		n_adj[n_nodes] = 0
	}
	return node_id[m]
}

# A -> B, with the first include that makes it (for the message).
function add_edge(a, b, why,    u, v)
{
	if (a == b)
		return
	u = node_of(a)
	v = node_of(b)
	if ((u, v) in edge_why)
		return
	edge_why[u, v] = why
	adj[u, ++n_adj[u]] = v
}

# Tarjan's strongly connected components; each one of two or more modules holds a cycle.
function find_cycles(    v)
{
	next_index = 0
	sp = 0
	for (v = 1; v <= n_nodes; v++)
		if (!(v in index_of))
			connect(v)
}

function connect(v,    i, w, n, list)
{
	index_of[v] = low[v] = next_index++
	stack[++sp] = v
	on_stack[v] = 1
	for (i = 1; i <= n_adj[v]; i++) {
		w = adj[v, i]
		if (!(w in index_of)) {
			connect(w)
			if (low[w] < low[v])
				low[v] = low[w]
		} else if (on_stack[w] && index_of[w] < low[v])
			low[v] = index_of[w]
	}
	if (low[v] != index_of[v])
		return
	n = 0
	do {
		w = stack[sp--]
		on_stack[w] = 0
		in_component[w] = v
		list[++n] = w
	} while (w != v)
	if (n > 1)
		report_component(v, n, list)
}

# Every module of a component lies on a cycle: report the shortest cycle through each, each cycle once.
function report_component(root, n, list,    i, j, t, members)
{
	for (i = 2; i <= n; i++) # by name, so the report reads the same whatever the traversal
		for (j = i; j > 1 && node_name[list[j]] < node_name[list[j - 1]]; j--) {
			t = list[j]
			list[j] = list[j - 1]
			list[j - 1] = t
		}
	members = ""
	for (i = 1; i <= n; i++)
		members = members (i > 1 ? ", " : "") node_name[list[i]]
	for (i = 1; i <= n; i++)
		report_cycle(list[i], root, members)
}

# The shortest cycle from start back to it inside the component, by breadth-first search.
function report_cycle(start, root, members,    queue, head, tail, u, w, i, parent, seen, found, path, steps, key, lowest)
{
	head = tail = 1
	queue[1] = start
	seen[start] = 1
	while (head <= tail && !found) {
		u = queue[head++]
		for (i = 1; i <= n_adj[u] && !found; i++) {
			w = adj[u, i]
			if (in_component[w] != root)
				continue
			if (w == start) {
				parent[start] = u
				found = 1
			} else if (!(w in seen)) {
				seen[w] = 1
				parent[w] = u
				queue[++tail] = w
			}
		}
	}
	# walk back from start; the key (the cycle's edges) skips a cycle already reported from another module
	path = node_name[start]
	steps = ""
	key = ""
	for (w = start; ; w = u) {
		u = parent[w]
		steps = "\n  " edge_why[u, w] steps
		path = node_name[u] " -> " path
		key = key SUBSEP u SUBSEP w
		if (u == start)
			break
	}
	lowest = edge_set_key(key)
	if (lowest in cycle_reported)
		return
	cycle_reported[lowest] = 1
	problem("module cycle", path " (component: " members ")" steps)
}

# The edges "u>w" of a cycle, sorted: the same cycle found from two of its modules gives the same key.
function edge_set_key(key,    parts, n, i, j, t, edges, m, out)
{
	n = split(key, parts, SUBSEP)
	m = 0
	for (i = 2; i + 1 <= n; i += 2)
		edges[++m] = parts[i] ">" parts[i + 1]
	for (i = 2; i <= m; i++)
		for (j = i; j > 1 && edges[j] < edges[j - 1]; j--) {
			t = edges[j]
			edges[j] = edges[j - 1]
			edges[j - 1] = t
		}
	out = ""
	for (i = 1; i <= m; i++)
		out = out " " edges[i]
	return out
}
