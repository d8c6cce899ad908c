/*
 * The site's search worker: speaks mkdocs-material's worker protocol (setup, ready,
 * query, result) and answers from the record index (kb-search.js). Each record is one
 * result group, so the first result links to the record's anchor.
 */

var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3
var records = null
// The system of the page the search box is on (main.html passes it), or "": an ID several
// systems declare shows its record first; on an earlier run's page, that run's words too.
var here = new URLSearchParams(self.location.search).get("system") || ""
// The site's index names the earlier runs' index written beside it (search/).
var SEARCH_FOLDER = "../../search/"

function escapeHtml(text) {
  // Material renders titles, texts and tags as HTML.
  return String(text).replace(/[&<>"']/g, function (ch) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]
  })
}

// The words of a snippet that the query matched: its tokens, the last one (the word being
// typed) also as a prefix, as kb-search.js matches them.
var SNIPPET_CHARS = 180
var WORD = /[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu

function matches(word, tokens) {
  var lower = word.toLowerCase()
  return tokens.some(function (token, at) {
    return lower === token || (at === tokens.length - 1 && lower.indexOf(token) === 0)
  })
}

// The text with each matched word in <mark>, cut to SNIPPET_CHARS around the first match
// when ``window`` is set. Escaped piece by piece, so a mark never falls inside an entity;
// one pass over the text.
function marked(value, tokens, window) {
  var text = String(value || "")
  if (!text) return ""
  var found = [], first = -1, match
  WORD.lastIndex = 0
  while (tokens.length && (match = WORD.exec(text)) !== null) {
    if (matches(match[0], tokens)) {
      if (first < 0) first = match.index
      found.push([match.index, match.index + match[0].length])
    }
  }
  var start = window ? Math.max(0, Math.min(first < 0 ? 0 : first - 40, text.length - SNIPPET_CHARS)) : 0
  var end = window ? Math.min(text.length, start + SNIPPET_CHARS) : text.length
  var html = start > 0 ? "… " : "", at = start
  found.forEach(function (span) {
    if (span[0] < at || span[1] > end) return
    html += escapeHtml(text.slice(at, span[0])) + "<mark>" + escapeHtml(text.slice(span[0], span[1])) + "</mark>"
    at = span[1]
  })
  return html + escapeHtml(text.slice(at, end)) + (end < text.length ? " …" : "")
}

function resultItem(hit, terms, tokens) {
  var entry = hit.entry
  // A section of a page has a title but no ID; a hand-written page's has no system either.
  var title = [entry.id, entry.label].filter(Boolean).join(" · ")
  // Material shows a result's text only under a page-level entry; each record is its own
  // result (the first link opens its anchor), so the snippet is part of the title.
  var shown = marked(entry.context, tokens, true)
  var earlier = entry.run ? "earlier run " + entry.run : ""
  return {
    location: highlighted(entry.url, tokens),
    title: marked(title, tokens, false) + (shown ? '<span class="kb-search-snippet">' + shown + "</span>" : ""),
    text: "",  // the snippet is in the title; the theme would print this again under a page's own entry
    tags: [entry.system, entry.kind, earlier].filter(Boolean).map(escapeHtml),
    score: hit.score,
    terms: terms
  }
}

// The landing page marks what was searched (?h=, kb-highlight.js): the query's tokens,
// whole, before the record's anchor.
function highlighted(url, tokens) {
  if (!tokens.length) return url
  var at = url.indexOf("#")
  var page = at < 0 ? url : url.slice(0, at)
  return page + "?h=" + encodeURIComponent(tokens.join(" ")) + (at < 0 ? "" : url.slice(at))
}

// lunr.js and the record search load with the index, when the search box is first used
// (main.html holds the index back until then), not with every page.
var loaded = false
function load() {
  if (!loaded) importScripts("vendor/lunr-2.3.9.js", "kb-search.js")
  loaded = true
}

addEventListener("message", function (event) {
  var message = event.data
  if (message.type === SETUP) {
    load()
    var data = message.data.config.kb
    var ready = function (earlier) {
      records = data ? new self.kbSearch.RecordIndex(data, earlier) : null
      postMessage({ type: READY })
    }
    if (!data || typeof data.earlier !== "string") return ready(null)
    fetch(new URL(SEARCH_FOLDER + encodeURIComponent(data.earlier), self.location.href))
      .then(function (response) { return response.ok ? response.json() : null })
      .then(ready, function () { ready(null) })
  } else if (message.type === QUERY) {
    load()
    var hits = records ? records.search(message.data, here) : []
    var terms = {}
    var tokens = self.kbSearch.queryTokens(message.data)
    tokens.forEach(function (token) { terms[token] = true })
    postMessage({
      type: RESULT,
      data: { items: hits.map(function (hit) { return [resultItem(hit, terms, tokens)] }) }
    })
  }
})
