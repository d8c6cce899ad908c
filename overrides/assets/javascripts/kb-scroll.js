/* Analysis KB: a box wider than its content's room says so. Every table of a page scrolls
 * sideways in its own box (the theme's scroll wrapper, or the memory comparison's matrix)
 * and keeps its first column in view (kb.css); a route map scrolls in its drawing's box
 * (kb-maps.js announces each box it draws with a `kb-scroll-box` event). This script puts
 * a visible line above each box, shown only while its content is wider than the box, and
 * marks the edge that has more beyond it (kb.css fades it, so a cell or node cut there
 * reads as continued). A box that scrolls is made reachable from the keyboard. The cue's
 * words are the script's own: nothing of the page is read back as HTML.
 *
 * One ResizeObserver watches every box and its content: the browser calls it after a
 * layout, with every box that changed, and the boxes are all measured first, then all
 * marked, so no measurement waits for a layout a mark caused (a page of many tables
 * costs no layout of its own). A scroll measures and marks its own box only. Runs on
 * every page load, including mkdocs-material's instant navigation (`document$`).
 */
(function () {
  "use strict";

  var TABLE_BOXES = ".md-content .md-typeset__scrollwrap, .md-content .kb-matrix";
  var MAP_BOX = "kb-map__drawing";
  var TABLE_CUE = "More columns: scroll the table sideways →";
  var MAP_CUE = "More of the map: scroll it sideways →";
  var boxOf = new WeakMap();  // an observed element (a box, or its table or drawing) → its box
  var cueOf = new WeakMap();  // a box → the line above it

  function measure(box) {
    var overflow = box.scrollWidth - box.clientWidth;
    var scrolls = overflow > 1;
    return {
      scrolls: scrolls,
      more: scrolls && box.scrollLeft < overflow - 1,
      back: scrolls && box.scrollLeft > 1
    };
  }

  function mark(box, state) {
    var cue = cueOf.get(box);
    if (cue && cue.hidden === state.scrolls) cue.hidden = !state.scrolls;
    box.classList.toggle("kb-scrolls", state.scrolls);
    box.classList.toggle("kb-scrolls--more", state.more);
    box.classList.toggle("kb-scrolls--back", state.back);
    if (state.scrolls && !box.hasAttribute("tabindex")) {
      box.setAttribute("tabindex", "0");
      box.setAttribute("data-kb-scroll-focus", "");
    } else if (!state.scrolls && box.hasAttribute("data-kb-scroll-focus")) {
      box.removeAttribute("tabindex");
      box.removeAttribute("data-kb-scroll-focus");
    }
  }

  // All reads, then all writes.
  function refresh(boxes) {
    var states = boxes.map(measure);
    boxes.forEach(function (box, at) { mark(box, states[at]); });
  }

  var observer = typeof ResizeObserver !== "undefined"
    ? new ResizeObserver(function (entries) {
        var boxes = [];
        entries.forEach(function (entry) {
          var box = boxOf.get(entry.target);
          if (box && box.isConnected && boxes.indexOf(box) < 0) boxes.push(box);
        });
        refresh(boxes);
      })
    : null;
  var unobserved = [];  // without a ResizeObserver: every box, measured on resize

  function cueFor(box) {
    // A map drawn again (the palette switched) finds the line its first drawing had.
    var before = box.previousElementSibling;
    if (before && before.classList.contains("kb-scroll-cue")) return before;
    var cue = document.createElement("p");
    cue.className = "kb-scroll-cue";
    cue.textContent = box.classList.contains(MAP_BOX) ? MAP_CUE : TABLE_CUE;
    cue.hidden = true;
    box.parentNode.insertBefore(cue, box);
    return cue;
  }

  // Writes only: the first measurement comes from the observer, after the next layout.
  function watch(box) {
    if (box.hasAttribute("data-kb-scroll") || !box.parentNode) return;
    box.setAttribute("data-kb-scroll", "");
    cueOf.set(box, cueFor(box));
    box.addEventListener("scroll", function () { mark(box, measure(box)); }, { passive: true });
    var content = box.querySelector("table, svg");
    boxOf.set(box, box);
    if (content) boxOf.set(content, box);
    if (observer) {
      observer.observe(box);
      if (content) observer.observe(content);
    } else {
      unobserved.push(box);
    }
  }

  function scan() {
    document.querySelectorAll(TABLE_BOXES).forEach(watch);
    if (!observer) window.requestAnimationFrame(function () { refresh(unobserved.filter(isShown)); });
  }

  function isShown(box) { return box.isConnected; }

  function setUp() {
    scan();
    // The theme wraps a page's tables in its scroll wrapper in its own subscriber, which
    // may run after this one: look again once it has.
    window.setTimeout(scan, 0);
  }

  document.addEventListener("kb-scroll-box", function (event) {
    if (event.target instanceof Element && event.target.classList.contains(MAP_BOX)) {
      watch(event.target);
      if (!observer) refresh([event.target]);
    }
  });
  if (!observer) {
    window.addEventListener("resize", function () { refresh(unobserved.filter(isShown)); });
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
