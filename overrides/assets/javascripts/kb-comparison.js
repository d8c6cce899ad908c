/* Analysis KB: sort and filter the tables of the memory comparison page.
 *
 * Works on the tables inside `.kb-comparison` blocks as MkDocs renders them: a click on
 * a header sorts that table by the column's text (again: reverse order); the filter box
 * above the first table keeps the rows whose text contains every word typed. No
 * network, no dependencies. Runs on every page load, including mkdocs-material's
 * instant navigation (`document$`), and does nothing on pages without such tables.
 */
(function () {
  "use strict";

  function cellText(row, index) {
    var cell = row.cells[index];
    return cell ? cell.textContent.trim().toLowerCase() : "";
  }

  function sortBy(table, index, header) {
    var body = table.tBodies[0];
    if (!body) return;
    var ascending = header.getAttribute("aria-sort") !== "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var order = cellText(a, index).localeCompare(cellText(b, index));
      return ascending ? order : -order;
    });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (other) {
      other.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }

  function makeSortable(table) {
    if (!table.tHead || table.dataset.kbSortable) return;
    table.dataset.kbSortable = "true";
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (header, index) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "kb-sort";
      button.textContent = header.textContent;
      button.title = "Sort by " + header.textContent;
      button.addEventListener("click", function () { sortBy(table, index, header); });
      header.textContent = "";
      header.appendChild(button);
    });
  }

  function applyFilter(tables, query) {
    var words = query.toLowerCase().split(/\s+/).filter(Boolean);
    tables.forEach(function (table) {
      Array.prototype.forEach.call(table.tBodies[0] ? table.tBodies[0].rows : [], function (row) {
        var text = row.textContent.toLowerCase();
        var keep = words.every(function (word) { return text.indexOf(word) !== -1; });
        row.hidden = !keep;
      });
    });
  }

  function setUp() {
    var blocks = document.querySelectorAll(".kb-comparison");
    if (!blocks.length || document.querySelector(".kb-comparison-filter")) return;
    var tables = [];
    blocks.forEach(function (block) {
      block.querySelectorAll("table").forEach(function (table) {
        makeSortable(table);
        tables.push(table);
      });
    });
    var input = document.createElement("input");
    input.type = "search";
    input.className = "kb-comparison-filter";
    input.placeholder = "Filter systems and values";
    input.setAttribute("aria-label", "Filter the comparison rows");
    input.addEventListener("input", function () { applyFilter(tables, input.value); });
    blocks[0].parentNode.insertBefore(input, blocks[0]);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
