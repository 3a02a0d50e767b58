// report.js — niceties only: collapsing function sections and sorting the summary table. The report reads
// the same without it.
(function () {
	"use strict";

	function setCollapsed(section, collapsed) {
		section.classList.toggle("collapsed", collapsed);
		var button = section.querySelector(".toggle");
		if (button) {
			button.textContent = collapsed ? "show" : "hide";
			button.setAttribute("aria-expanded", String(!collapsed));
		}
	}

	function addToggles() {
		var sections = document.querySelectorAll("section.function");
		sections.forEach(function (section) {
			var heading = section.querySelector("h2");
			if (!heading) return;
			var button = document.createElement("button");
			button.type = "button";
			button.className = "toggle";
			button.addEventListener("click", function () {
				setCollapsed(section, !section.classList.contains("collapsed"));
			});
			heading.appendChild(button);
			setCollapsed(section, false);
		});
		var summary = document.getElementById("summary");
		if (!summary || sections.length < 2) return;
		var controls = document.createElement("p");
		controls.className = "controls";
		[["collapse all", true], ["expand all", false]].forEach(function (spec) {
			var button = document.createElement("button");
			button.type = "button";
			button.className = "toggle";
			button.textContent = spec[0];
			button.addEventListener("click", function () {
				sections.forEach(function (s) { setCollapsed(s, spec[1]); });
			});
			controls.appendChild(button);
			controls.appendChild(document.createTextNode(" "));
		});
		summary.appendChild(controls);
	}

	// Sort rows by the data-v number of the clicked column (cells without one sort last).
	function makeSortable(table) {
		var headers = table.querySelectorAll("thead th");
		headers.forEach(function (th, col) {
			th.style.cursor = "pointer";
			th.addEventListener("click", function () {
				var asc = !th.classList.contains("sort-asc");
				headers.forEach(function (h) { h.classList.remove("sort-asc", "sort-desc"); });
				th.classList.add(asc ? "sort-asc" : "sort-desc");
				var body = table.tBodies[0];
				var rows = Array.prototype.slice.call(body.rows);
				rows.sort(function (a, b) {
					var x = key(a.cells[col]), y = key(b.cells[col]);
					if (typeof x !== typeof y) return typeof x === "number" ? -1 : 1;
					return (x < y ? -1 : x > y ? 1 : 0) * (asc ? 1 : -1);
				});
				rows.forEach(function (r) { body.appendChild(r); });
			});
		});
	}

	function key(cell) {
		if (!cell) return "";
		var v = cell.getAttribute("data-v");
		return v !== null && v !== "" ? Number(v) : cell.textContent.trim().toLowerCase();
	}

	document.addEventListener("DOMContentLoaded", function () {
		addToggles();
		document.querySelectorAll("table.sortable").forEach(makeSortable);
		// For the browser test: the script ran to the end, and how many charts the page holds.
		document.documentElement.setAttribute("data-kcost-ready", "1");
		document.documentElement.setAttribute("data-kcost-svgs", String(document.querySelectorAll("svg").length));
	});
})();
