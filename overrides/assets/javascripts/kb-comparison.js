/* Analysis KB: sort and filter the memory comparison.
 *
 * Works on the tables inside `.kb-comparison` blocks: the comparison page's matrix
 * (generator/render/matrix.py) and the tables the comparison_table macro embeds.
 * - A click on a header sorts each body of its table by that column's text (again:
 *   reverse order); a body's first row stays first when it names the body's group.
 * - The filter box keeps the rows whose text (with the titles of their links: the
 *   evidence records and notes) holds every word typed.
 * - The value filter (`.kb-facets`, written by the page with its counts, hidden until
 *   this script shows it): each button keeps the systems that have its assessment or
 *   value on its axis; several pressed buttons keep the systems that have them all.
 *   "Show all systems" releases them and empties the box; a line says how many are shown.
 * No network, no dependencies. Runs on every page load, including mkdocs-material's
 * instant navigation (`document$`), and does nothing on pages without such tables.
 */
(function () {
  "use strict";

  var each = function (list, fn) { Array.prototype.forEach.call(list, fn); };

  function isGroupRow(row) { return row.classList.contains("kb-matrix__group"); }

  function cellText(row, index) {
    var cell = row.cells[index];
    return cell ? cell.textContent.trim().toLowerCase() : "";
  }

  function sortBy(table, index, header) {
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    each(table.tBodies, function (body) {
      var rows = Array.prototype.filter.call(body.rows, function (row) { return !isGroupRow(row); });
      rows.sort(function (a, b) {
        var order = cellText(a, index).localeCompare(cellText(b, index));
        return ascending ? order : -order;
      });
      rows.forEach(function (row) { body.appendChild(row); });
    });
    each(table.tHead.rows[0].cells, function (other) { other.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }

  function makeSortable(table) {
    if (!table.tHead || table.dataset.kbSortable) return;
    table.dataset.kbSortable = "true";
    each(table.tHead.rows[0].cells, function (header, index) {
      var abbr = header.querySelector("abbr[title]");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "kb-sort";
      button.title = "Sort by " + (abbr ? abbr.title : header.textContent.trim());
      while (header.firstChild) button.appendChild(header.firstChild);
      button.addEventListener("click", function () { sortBy(table, index, header); });
      header.appendChild(button);
    });
  }

  /* What a row offers the filters: its words, and its axis@assessment and axis=value keys. */
  function describe(row) {
    var text = [row.textContent];
    each(row.querySelectorAll("[title]"), function (el) { text.push(el.title); });
    var keys = {};
    each(row.querySelectorAll("td[data-kb-axis]"), function (cell) {
      var axis = cell.dataset.kbAxis;
      keys[axis + "@" + cell.dataset.kbAssessment] = true;
      each(cell.querySelectorAll("[data-kb-value]"), function (chip) {
        keys[axis + "=" + chip.dataset.kbValue] = true;
      });
    });
    return { row: row, text: text.join(" ").toLowerCase(), keys: keys };
  }

  function facetKey(button) {
    var axis = button.dataset.kbAxis;
    return button.dataset.kbValue !== undefined
      ? axis + "=" + button.dataset.kbValue
      : axis + "@" + button.dataset.kbAssessment;
  }

  function setUp() {
    var blocks = document.querySelectorAll(".kb-comparison");
    if (!blocks.length || document.querySelector(".kb-comparison-filter")) return;
    var rows = [];
    var bodies = [];
    blocks.forEach(function (block) {
      block.querySelectorAll("table").forEach(function (table) {
        makeSortable(table);
        each(table.tBodies, function (body) {
          bodies.push(body);
          each(body.rows, function (row) { if (!isGroupRow(row)) rows.push(describe(row)); });
        });
      });
    });
    var panel = document.querySelector(".kb-facets");
    var buttons = panel ? panel.querySelectorAll("button.kb-facet") : [];
    var status = panel ? panel.querySelector(".kb-facets__status") : null;

    var input = document.createElement("input");
    input.type = "search";
    input.className = "kb-comparison-filter";
    input.placeholder = "Filter by words: system, value, record, note";
    input.setAttribute("aria-label", "Filter the comparison rows by words");

    function apply() {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      var chosen = Array.prototype.filter.call(buttons, function (button) {
        return button.getAttribute("aria-pressed") === "true";
      }).map(facetKey);
      var shown = 0;
      rows.forEach(function (entry) {
        var keep = words.every(function (word) { return entry.text.indexOf(word) !== -1; }) &&
          chosen.every(function (key) { return entry.keys[key] === true; });
        entry.row.hidden = !keep;
        if (keep) shown += 1;
      });
      bodies.forEach(function (body) {  // a group none of whose systems is kept disappears
        var kept = Array.prototype.some.call(body.rows, function (row) { return !isGroupRow(row) && !row.hidden; });
        body.hidden = !kept;
      });
      if (status) {
        var filtered = words.length > 0 || chosen.length > 0;
        status.textContent = filtered ? shown + " of " + rows.length + (rows.length === 1 ? " system" : " systems") + " shown" : "";
      }
    }

    input.addEventListener("input", apply);
    each(buttons, function (button) {
      button.addEventListener("click", function () {
        var pressed = button.getAttribute("aria-pressed") === "true";
        button.setAttribute("aria-pressed", pressed ? "false" : "true");
        apply();
      });
    });
    if (panel) {
      panel.insertBefore(input, panel.firstChild);
      var clear = panel.querySelector(".kb-facets__clear");
      if (clear) {
        clear.addEventListener("click", function () {
          each(buttons, function (button) { button.setAttribute("aria-pressed", "false"); });
          input.value = "";
          apply();
        });
      }
      panel.hidden = false;
    } else {
      blocks[0].parentNode.insertBefore(input, blocks[0]);
    }
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
