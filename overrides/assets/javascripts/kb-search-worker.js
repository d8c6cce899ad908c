/*
 * The site's search worker: speaks mkdocs-material's worker protocol (setup, ready,
 * query, result) and answers from the record index (kb-search.js). Each record is one
 * result group, so the first result links to the record's anchor.
 */
importScripts("vendor/lunr-2.3.9.js", "kb-search.js")

var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3
var records = null
// The system of the page the search box is on (main.html passes it), or "".
var here = new URLSearchParams(self.location.search).get("system") || ""

function escapeHtml(text) {
  // Material renders titles, texts and tags as HTML.
  return String(text).replace(/[&<>"']/g, function (ch) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]
  })
}

// An ID several systems declare: this page's system's record first.
function hereFirst(hits, query) {
  var wanted = query.trim().toUpperCase()
  if (!here || !wanted) return hits
  var mine = hits.filter(function (hit) { return hit.entry.system === here && hit.entry.id === wanted })
  return mine.concat(hits.filter(function (hit) { return mine.indexOf(hit) < 0 }))
}

function resultItem(hit, terms) {
  var entry = hit.entry
  // A section of a page has a title but no ID; a hand-written page's has no system either.
  var title = [entry.id, entry.label].filter(Boolean).join(" · ")
  return {
    location: entry.url,
    title: escapeHtml(title),
    text: escapeHtml(entry.context),
    tags: [entry.system, entry.kind].filter(Boolean).map(escapeHtml),
    score: hit.score,
    terms: terms  // highlighted on the landing page (?h=)
  }
}

addEventListener("message", function (event) {
  var message = event.data
  if (message.type === SETUP) {
    var data = message.data.config.kb
    records = data ? new self.kbSearch.RecordIndex(data) : null
    postMessage({ type: READY })
  } else if (message.type === QUERY) {
    var hits = records ? hereFirst(records.search(message.data), message.data) : []
    var terms = {}
    self.kbSearch.queryTokens(message.data).forEach(function (token) { terms[token] = true })
    postMessage({
      type: RESULT,
      data: { items: hits.map(function (hit) { return [resultItem(hit, terms)] }) }
    })
  }
})
