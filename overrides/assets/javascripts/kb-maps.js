/* Analysis KB: draw the route maps of a system page and link their nodes.
 *
 * Each `.kb-map` figure holds its Mermaid source (`pre.kb-map__source`, hidden) and a
 * list of its nodes as links (`[data-kb-node]`: the node's key, the record's href, its
 * ID and full label). The vendored Mermaid (3.6 MB) is fetched only when a map comes
 * near the viewport: overrides/main.html names it on pages that have a map
 * (`script[data-kb-mermaid]`, an inert element: no id, so the page's anchors are its
 * content's alone); where nothing names it (`kbgen render`'s pages, built without the
 * theme override) it is the file MERMAID beside this script; a page whose mermaid fence
 * needs it at load has it already. Mermaid draws the source into the page, with `securityLevel: "strict"`;
 * then each drawn node is wrapped in an SVG link taken from the list, its full label as
 * the link's title (shown on hover). No link comes from the Mermaid source: it has no
 * `click` line, and its labels hold no markup. A map is never drawn smaller than
 * LEGIBLE_SCALE of its natural size (14 px labels stay 11 px or more): a narrower
 * screen scrolls the map in its own box, never the page. Without Mermaid or on an error
 * the list stays, and is the map's text form. Only the site's own files are fetched.
 */
(function () {
  "use strict";

  var SVG_NS = "http://www.w3.org/2000/svg";
  var NODE_ID = /-flowchart-(n\d+)-\d+$/;  // Mermaid's id of a drawn node: <diagram>-flowchart-<key>-<n>
  var drawn = 0;
  // A map is drawn at this share of its natural size or more: its 14 px labels stay 11 px
  // or more. The list of unrelated routes stays beside the maps while they keep it, and
  // moves under them otherwise.
  var LEGIBLE_SCALE = 0.8;
  // Mermaid is fetched when a map is this near the viewport, so that it is drawn by the
  // time the reader scrolls to it.
  var NEAR = "600px 0px";
  // The vendored Mermaid, relative to this script (generator/site/render_out.py's
  // MERMAID_SCRIPT, overrides/main.html's mermaid_src).
  var MERMAID = "vendor/mermaid-11.17.2.min.js";
  var OWN_ADDRESS = document.currentScript ? document.currentScript.src : "";

  function settings() {
    var dark = document.body.getAttribute("data-md-color-scheme") === "slate";
    return {
      startOnLoad: false,
      securityLevel: "strict",
      theme: dark ? "dark" : "default",
      themeVariables: { fontSize: "14px" },
      flowchart: { htmlLabels: true, useMaxWidth: true, nodeSpacing: 20, rankSpacing: 48, wrappingWidth: 170 }
    };
  }

  function nodeLinks(figure) {
    var links = {};
    figure.querySelectorAll("[data-kb-node]").forEach(function (item) {
      var link = item.querySelector("a[href]");
      if (link) links[item.getAttribute("data-kb-node")] = link;
    });
    return links;
  }

  function linkNodes(svg, links) {
    svg.querySelectorAll("g.node").forEach(function (group) {
      var match = NODE_ID.exec(group.id);
      var source = match ? links[match[1]] : undefined;
      if (!source) return;
      var link = document.createElementNS(SVG_NS, "a");
      link.setAttribute("href", source.getAttribute("href"));
      link.setAttribute("class", "kb-map__link");
      link.setAttribute("aria-label", source.textContent);
      var title = document.createElementNS(SVG_NS, "title");
      title.textContent = source.textContent;
      link.appendChild(title);
      group.parentNode.insertBefore(link, group);
      link.appendChild(group);
    });
  }

  function draw(figure) {
    var source = figure.querySelector("pre.kb-map__source");
    if (!source || figure.getAttribute("data-kb-drawn")) return Promise.resolve();
    drawn += 1;
    var id = "kb-map-" + drawn;
    return window.mermaid.render(id, source.textContent).then(function (result) {
      var drawing = document.createElement("div");
      drawing.className = "kb-map__drawing";
      drawing.innerHTML = result.svg;
      var svg = drawing.querySelector("svg");
      if (svg) {
        keepLegible(svg);
        linkNodes(svg, nodeLinks(figure));
      }
      source.parentNode.insertBefore(drawing, source);
      figure.setAttribute("data-kb-drawn", "true");
      // kb-scroll.js watches the box: the line above it says when the map runs past it.
      drawing.dispatchEvent(new CustomEvent("kb-scroll-box", { bubbles: true }));
    }).catch(function () {
      figure.setAttribute("data-kb-drawn", "failed");
      var list = figure.querySelector("details");
      if (list) list.open = true;
    });
  }

  function naturalWidth(svg) {
    return svg.viewBox && svg.viewBox.baseVal ? svg.viewBox.baseVal.width : 0;
  }

  // Mermaid sizes the drawing to its box (width 100%, at most its natural width); below
  // the legible share it keeps that share and its box scrolls.
  function keepLegible(svg) {
    var natural = naturalWidth(svg);
    if (natural > 0) svg.style.minWidth = Math.ceil(natural * LEGIBLE_SCALE) + "px";
  }

  function placeUnrelated(container) {
    if (!container.querySelector(".kb-route-maps__unrelated")) return;
    container.classList.remove("kb-route-maps--stacked");  // measured beside the list
    var cramped = Array.prototype.some.call(container.querySelectorAll(".kb-map__drawing"), function (drawing) {
      var svg = drawing.querySelector("svg");
      var natural = svg ? naturalWidth(svg) : 0;
      return natural > 0 && drawing.clientWidth < natural * LEGIBLE_SCALE;
    });
    container.classList.toggle("kb-route-maps--stacked", cramped);
  }

  function drawAll(figures) {
    document.documentElement.setAttribute("data-kb-maps", "drawing");
    window.mermaid.initialize(settings());
    // One at a time: each drawing measures its labels in the document.
    figures.reduce(function (previous, figure) {
      return previous.then(function () { return draw(figure); });
    }, Promise.resolve()).then(function () {
      document.querySelectorAll(".kb-route-maps").forEach(placeUnrelated);
      document.documentElement.setAttribute("data-kb-maps", "drawn");
    });
  }

  // The palette switch (light/dark) draws the maps again in the other Mermaid theme.
  function redrawOnSchemeChange(figures) {
    var scheme = document.body.getAttribute("data-md-color-scheme");
    new MutationObserver(function () {
      var now = document.body.getAttribute("data-md-color-scheme");
      if (now === scheme) return;
      scheme = now;
      figures.forEach(function (figure) {
        var drawing = figure.querySelector(".kb-map__drawing");
        if (drawing) drawing.parentNode.removeChild(drawing);
        figure.removeAttribute("data-kb-drawn");
      });
      drawAll(figures);
    }).observe(document.body, { attributes: true, attributeFilter: ["data-md-color-scheme"] });
  }

  var loading = null;

  // The element naming Mermaid comes after this script in the page.
  function parsed() {
    return new Promise(function (resolve) {
      if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", resolve);
      else resolve();
    });
  }

  // The vendored Mermaid, once: already there (a mermaid fence's page loads it), or
  // fetched from the address overrides/main.html gives, else from beside this script.
  function loadMermaid() {
    if (typeof window.mermaid !== "undefined") return Promise.resolve();
    if (loading) return loading;
    loading = parsed().then(function () {
      // A script element: no heading's anchor can stand in for it.
      var named = document.querySelector('script[data-kb-mermaid][type="text/plain"]');
      var address = named ? named.getAttribute("data-src") : null;
      if (!address && OWN_ADDRESS) address = new URL(MERMAID, OWN_ADDRESS).href;
      if (!address) throw new Error("no Mermaid on this page");
      return new Promise(function (resolve, reject) {
        var script = document.createElement("script");
        script.src = address;
        script.onload = resolve;
        script.onerror = reject;
        document.head.appendChild(script);
      });
    });
    return loading;
  }

  function start(figures) {
    document.documentElement.setAttribute("data-kb-maps", "loading");
    loadMermaid().then(function () {
      drawAll(figures);
      redrawOnSchemeChange(figures);
    }, function () {
      figures.forEach(function (figure) {
        figure.setAttribute("data-kb-drawn", "failed");
        var list = figure.querySelector("details");
        if (list) list.open = true;
      });
      document.documentElement.setAttribute("data-kb-maps", "failed");
    });
  }

  // Mermaid is fetched when the first map nears the viewport (at once without an
  // IntersectionObserver), and the maps are drawn then.
  function whenNear(figures, then) {
    if (typeof window.IntersectionObserver === "undefined") {
      then();
      return;
    }
    var observer = new IntersectionObserver(function (entries) {
      if (!entries.some(function (entry) { return entry.isIntersecting; })) return;
      observer.disconnect();
      then();
    }, { rootMargin: NEAR });
    figures.forEach(function (figure) { observer.observe(figure); });
  }

  function setUp() {
    var figures = Array.prototype.slice.call(document.querySelectorAll(".kb-map"));
    if (!figures.length) {
      // A system whose routes relate to nothing has no map to draw: its routes are listed.
      if (document.querySelector(".kb-route-maps")) document.documentElement.setAttribute("data-kb-maps", "drawn");
      return;
    }
    document.documentElement.setAttribute("data-kb-maps", "waiting");
    whenNear(figures, function () { start(figures); });
  }

  if (typeof window.document$ !== "undefined" && window.document$.subscribe) {
    window.document$.subscribe(setUp);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", setUp);
  } else {
    setUp();
  }
})();
