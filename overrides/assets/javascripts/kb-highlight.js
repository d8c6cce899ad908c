/*
 * Marks on the page what a search result was found by: the landing page's ?h= (the worker
 * puts the query's tokens there) in <mark data-md-highlight>, the theme's own style.
 * Whole tokens only, cut as the search cuts them (letters, digits and "_" joined by
 * hyphens): ?h=CMP-1 marks CMP-1, not CMP-10, not the "1" of a line range. Several words
 * mark where they stand together; where they never do on the page, each word alone.
 * Replaces the theme's highlighter, which split a query at its hyphens and then marked
 * every piece. Text only: the page's text nodes are split, nothing is parsed as HTML.
 */
(function () {
  "use strict"

  // Kept in step with TOKEN and MAX_TOKEN_CHARS in generator/outputs/search.py.
  var TOKEN = /[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu
  var MAX_TOKEN_CHARS = 200
  // A query is a few words; a longer ?h= (a hand-made link) is cut, so marking stays
  // linear in the page's text.
  var MAX_WORDS = 16
  var SKIPPED = { SCRIPT: true, STYLE: true, TEXTAREA: true, MARK: true, svg: true }

  function words(text) {
    var found = [], match
    TOKEN.lastIndex = 0
    while ((match = TOKEN.exec(text)) !== null) {
      found.push({ start: match.index, end: match.index + match[0].length, lower: match[0].toLowerCase() })
    }
    return found
  }

  // Where the phrase's tokens stand one after another in a text: [start, end] spans.
  function spans(text, phrase) {
    var found = words(text), out = []
    for (var i = 0; i + phrase.length <= found.length; i++) {
      var whole = true
      for (var j = 0; j < phrase.length && whole; j++) whole = found[i + j].lower === phrase[j]
      if (whole) {
        out.push([found[i].start, found[i + phrase.length - 1].end])
        i += phrase.length - 1
      }
    }
    return out
  }

  function textNodes(root) {
    var nodes = []
    var walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
      acceptNode: function (node) {
        for (var at = node.parentNode; at && at !== root; at = at.parentNode) {
          if (SKIPPED[at.nodeName]) return NodeFilter.FILTER_REJECT
        }
        return NodeFilter.FILTER_ACCEPT
      }
    })
    for (var node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node)
    return nodes
  }

  function mark(node, found) {
    var text = node.nodeValue, at = 0, parts = document.createDocumentFragment()
    found.forEach(function (span) {
      parts.appendChild(document.createTextNode(text.slice(at, span[0])))
      var marked = document.createElement("mark")
      marked.setAttribute("data-md-highlight", "")
      marked.textContent = text.slice(span[0], span[1])
      parts.appendChild(marked)
      at = span[1]
    })
    parts.appendChild(document.createTextNode(text.slice(at)))
    node.parentNode.replaceChild(parts, node)
  }

  function highlight(root, query) {
    var phrase = words(query).map(function (word) { return word.lower })
      .filter(function (word) { return word.length <= MAX_TOKEN_CHARS })
      .slice(0, MAX_WORDS)
    if (!phrase.length) return
    var nodes = textNodes(root)
    var together = nodes.map(function (node) { return spans(node.nodeValue, phrase) })
    var anywhere = together.some(function (found) { return found.length > 0 })
    nodes.forEach(function (node, at) {
      var found = together[at]
      if (!anywhere) {
        found = []
        phrase.forEach(function (word) { found = found.concat(spans(node.nodeValue, [word])) })
        found.sort(function (a, b) { return a[0] - b[0] })
      }
      if (found.length) mark(node, found)
    })
  }

  var query = new URLSearchParams(location.search).get("h")
  var content = document.querySelector("article.md-content__inner")
  if (query && content) highlight(content, query)
})()
