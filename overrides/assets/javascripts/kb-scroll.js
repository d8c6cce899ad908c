/* Analysis KB: a table wider than its box says so. Every table of a page scrolls sideways
 * in its own box (the theme's scroll wrapper, or the memory comparison's matrix) and keeps
 * its first column in view (kb.css); this script puts a visible line above the box, shown
 * only while the table is wider than the box, and marks the edge that has more columns
 * beyond it (kb.css fades it, so a cell at the edge reads as continued, not cut). A box
 * that scrolls is made reachable from the keyboard. The cue's words are the script's own:
 * nothing of the page is read back as HTML. Runs on every page load, including
 * mkdocs-material's instant navigation (`document$`), and again when a box changes size.
 */
(function () {
  "use strict";

  var BOXES = ".md-content .md-typeset__scrollwrap, .md-content .kb-matrix";
  var CUE = "More columns: scroll the table sideways →";

  function update(box, cue) {
    var overflow = box.scrollWidth - box.clientWidth;
    var scrolls = overflow > 1;
    cue.hidden = !scrolls;
    box.classList.toggle("kb-scrolls", scrolls);
    box.classList.toggle("kb-scrolls--more", scrolls && box.scrollLeft < overflow - 1);
    box.classList.toggle("kb-scrolls--back", scrolls && box.scrollLeft > 1);
    if (scrolls && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("data-kb-scroll-focus", "");
    } else if (!scrolls && box.hasAttribute("data-kb-scroll-focus")) {
      box.removeAttribute("tabindex");
      box.removeAttribute("data-kb-scroll-focus");
    }
  }

  function watch(box) {
    if (box.hasAttribute("data-kb-scroll")) return;
    box.setAttribute("data-kb-scroll", "");
    var cue = document.createElement("p");
    cue.className = "kb-scroll-cue";
    cue.textContent = CUE;
    cue.hidden = true;
    box.parentNode.insertBefore(cue, box);
    var again = function () { update(box, cue); };
    box.addEventListener("scroll", again, { passive: true });
    if (typeof ResizeObserver !== "undefined") {
      var observer = new ResizeObserver(again);
      observer.observe(box);
      var table = box.querySelector("table");
      if (table) observer.observe(table);
    } else {
      window.addEventListener("resize", again);
    }
    again();
  }

  function scan() {
    document.querySelectorAll(BOXES).forEach(watch);
  }

  function setUp() {
    scan();
    // The theme wraps a page's tables in its scroll wrapper in its own subscriber, which
    // may run after this one: look again once it has.
    window.setTimeout(scan, 0);
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
