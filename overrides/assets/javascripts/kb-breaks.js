/* Analysis KB: long IDs, paths and values in inline code break only after "/", ".", "-"
 * and "_". The stylesheet stops the theme's breaking of a code span anywhere (which cut
 * "consolidate" into "consolida" and "te"); this script gives each span its break
 * opportunities, a <wbr> after each of those characters. Text nodes only: no markup of the
 * page's is read back as HTML. A digest or hash, which has none of those characters, is
 * marked to break anywhere (kb.css) rather than widen the page. Runs on every page load,
 * including mkdocs-material's instant navigation (`document$`).
 */
(function () {
  "use strict";

  var AFTER = /[\/.\-_]/;
  var SHORTEST = 12; // a shorter span never needs a break
  // A digest or commit hash (16 hex digits or more), or any run of 28 characters without
  // a space or one of those characters: no break opportunity would fit it on a phone, so
  // the span is marked and kb.css lets it break anywhere.
  var UNBREAKABLE = /[0-9a-f]{16,}|[^\s\/.\-_]{28,}/i;

  function soften(node) {
    var text = node.nodeValue;
    if (text.length < SHORTEST || !AFTER.test(text)) return;
    var fragment = document.createDocumentFragment();
    var start = 0;
    for (var at = 0; at < text.length - 1; at++) {
      if (AFTER.test(text.charAt(at))) {
        fragment.appendChild(document.createTextNode(text.slice(start, at + 1)));
        fragment.appendChild(document.createElement("wbr"));
        start = at + 1;
      }
    }
    fragment.appendChild(document.createTextNode(text.slice(start)));
    node.parentNode.replaceChild(fragment, node);
  }

  function setUp() {
    document.querySelectorAll(".md-content :not(pre) > code:not([data-kb-breaks])").forEach(function (code) {
      code.setAttribute("data-kb-breaks", "");
      if (UNBREAKABLE.test(code.textContent)) code.setAttribute("data-kb-digest", "");
      var walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
      var nodes = [];
      while (walker.nextNode()) nodes.push(walker.currentNode);
      nodes.forEach(soften);
    });
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
