/*
 * Record search, the browser half of generator/search.py: the same tokens and the same
 * query plan over the lunr index built in Python (shipped in search/search_index.json
 * under "config.kb"). Loaded by kb-search-worker.js and, in tests, directly by a page.
 * Needs a global `lunr` (vendor/lunr-2.3.9.js).
 */
(function (scope) {
  "use strict"

  // Kept in step with TOKEN in generator/search.py: letters, digits and "_", joined by hyphens.
  var TOKEN = /[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu
  var PREFIX_BOOST = 0.1
  var FIELDS = ["id", "kind", "label", "system", "url", "context"]

  function tokens(text) {
    return (text.match(TOKEN) || []).map(function (token) { return token.toLowerCase() })
  }

  function RecordIndex(data) {
    this.index = scope.lunr.Index.load(data.index)
    this.entries = data.entries.map(function (row) {
      var entry = {}
      FIELDS.forEach(function (name, at) { entry[name] = row[at] })
      return entry
    })
  }

  // Every ref one token matches, with its score: exact (stemmed) plus the typed prefix;
  // a token that matches nothing retries with edit distance 1.
  RecordIndex.prototype.tokenScores = function (token) {
    for (var distance = 0; distance <= 1; distance++) {
      var results = this.index.query(function (query) {
        query.term(token, { usePipeline: true, editDistance: distance })
        query.term(token, {
          usePipeline: false, wildcard: scope.lunr.Query.wildcard.TRAILING, boost: PREFIX_BOOST
        })
      })
      if (results.length) {
        var scores = new Map()
        results.forEach(function (result) { scores.set(Number(result.ref), result.score) })
        return scores
      }
    }
    return new Map()
  }

  // Hits best first: every token must match; scores add up; ties by record order.
  RecordIndex.prototype.search = function (query) {
    var totals = null
    var self = this
    tokens(query).forEach(function (token) {
      var scores = self.tokenScores(token)
      if (totals === null) { totals = scores; return }
      var next = new Map()
      scores.forEach(function (score, ref) {
        if (totals.has(ref)) next.set(ref, totals.get(ref) + score)
      })
      totals = next
    })
    var ranked = Array.from((totals || new Map()).entries())
    var rounded = function (score) { return Math.round(score * 1e6) / 1e6 }
    ranked.sort(function (a, b) { return rounded(b[1]) - rounded(a[1]) || a[0] - b[0] })
    return ranked.map(function (pair) {
      return { entry: self.entries[pair[0]], score: pair[1] }
    })
  }

  scope.kbSearch = { tokens: tokens, RecordIndex: RecordIndex }
})(typeof self !== "undefined" ? self : this)
