/*
 * The site's search worker: speaks mkdocs-material's worker protocol (setup, ready,
 * query, result) and answers from the record index (kb-search.js). Each record is one
 * result group, so the first result links to the record's anchor.
 */
importScripts("vendor/lunr-2.3.9.js", "kb-search.js")

var SETUP = 0, READY = 1, QUERY = 2, RESULT = 3
var records = null

function escapeHtml(text) {
  // Material renders titles, texts and tags as HTML.
  return String(text).replace(/[&<>"']/g, function (ch) {
    return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch]
  })
}

function resultItem(hit, terms) {
  var entry = hit.entry
  // A hand-written page's section has a title but no ID and no system.
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
    var hits = records ? records.search(message.data) : []
    var terms = {}
    self.kbSearch.tokens(message.data).forEach(function (token) { terms[token] = true })
    postMessage({
      type: RESULT,
      data: { items: hits.map(function (hit) { return [resultItem(hit, terms)] }) }
    })
  }
})
