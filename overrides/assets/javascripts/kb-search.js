/*
 * Record search, the browser half of generator/search.py: the same tokens and the same
 * query plan over a lunr index built here from the counted terms the site ships (in
 * search/search_index.json under "config.kb"). Loaded by kb-search-worker.js and, in
 * tests, directly by a page. Needs a global `lunr` (vendor/lunr-2.3.9.js).
 */
(function (scope) {
  "use strict"

  // Kept in step with TOKEN in generator/search.py: letters, digits and "_", joined by hyphens.
  var TOKEN = /[\p{L}\p{N}_]+(?:-[\p{L}\p{N}_]+)*/gu
  var PREFIX_BOOST = 0.1
  var FIELDS = ["id", "kind", "label", "system", "url", "context", "run"]

  // Kept in step with MAX_TOKEN_CHARS in generator/search.py: longer words are left out.
  var MAX_TOKEN_CHARS = 200

  function tokens(text) {
    return (text.match(TOKEN) || [])
      .filter(function (token) { return token.length <= MAX_TOKEN_CHARS })
      .map(function (token) { return token.toLowerCase() })
  }

  // The tokens every hit must match (search.query_tokens): a stop word the index leaves out
  // is dropped, unless it is the last token, the word being typed.
  function queryTokens(query) {
    var found = tokens(query)
    return found.filter(function (token, at) {
      return at === found.length - 1 || lunr.stopWordFilter(lunr.trimmer(new lunr.Token(token))) !== undefined
    })
  }

  // lunr's BM25 parameters (generator/record_index.py).
  var K1 = 1.2
  var B = 0.75

  // The serialized lunr index of the shipped documents: serialized_index in
  // generator/record_index.py, with lunr.js's own arithmetic and rounding. Each document
  // holds, per field, its length and then each term with its count, in first-seen order.
  function serializedIndex(data) {
    var fields = data.fields
    var documents = data.documents
    var numbers = new Map()
    var postings = new Map()
    documents.forEach(function (document, ref) {
      var key = String(ref)
      fields.forEach(function (name, at) {
        var row = document[at]
        for (var i = 1; i < row.length; i += 2) {
          var posting = postings.get(row[i])
          if (posting === undefined) {
            numbers.set(row[i], numbers.size)
            posting = {}
            fields.forEach(function (field) { posting[field] = {} })
            postings.set(row[i], posting)
          }
          posting[name][key] = {}
        }
      })
    })
    var count = documents.length
    var average = fields.map(function (name, at) {
      var total = 0
      documents.forEach(function (document) { total += document[at][0] })
      return count ? total / count : 0
    })
    var idf = new Map()
    postings.forEach(function (posting, term) {
      var having = 0
      fields.forEach(function (field) { having += Object.keys(posting[field]).length })
      idf.set(term, Math.log(1 + Math.abs((count - having + 0.5) / (having + 0.5))))
    })
    var vectors = []
    documents.forEach(function (document, ref) {
      fields.forEach(function (name, at) {
        var row = document[at]
        var norm = K1 * (1 - B + B * (row[0] / average[at]))
        var weighted = []
        for (var i = 1; i < row.length; i += 2) {
          var tf = row[i + 1]
          var score = idf.get(row[i]) * ((K1 + 1) * tf) / (norm + tf)
          score *= data.boosts[at]
          weighted.push([numbers.get(row[i]), Math.round(score * 1000) / 1000])
        }
        weighted.sort(function (a, b) { return a[0] - b[0] })
        var flat = []
        weighted.forEach(function (pair) { flat.push(pair[0], pair[1]) })
        vectors.push([name + "/" + ref, flat])
      })
    })
    // lunr.js's token set needs its words in its own (UTF-16) order.
    var inverted = Array.from(postings.keys()).sort().map(function (term) {
      var posting = postings.get(term)
      posting._index = numbers.get(term)
      return [term, posting]
    })
    return {
      version: scope.lunr.version,
      fields: fields,
      fieldVectors: vectors,
      invertedIndex: inverted,
      pipeline: ["stemmer"]
    }
  }

  // The index of the shipped data; ``earlier``: the earlier runs' data (its own index,
  // searched beside this one, as search.RecordIndex does).
  function RecordIndex(data, earlier) {
    this.index = scope.lunr.Index.load(serializedIndex(data))
    this.entries = data.entries.map(function (row) {
      var entry = {}
      FIELDS.forEach(function (name, at) { entry[name] = row[at] === undefined ? "" : row[at] })
      return entry
    })
    this.earlier = earlier ? new RecordIndex(earlier) : null
  }

  // Every ref one token matches, with its score: exact (stemmed) plus the typed prefix;
  // a token that matches nothing retries with edit distance 1 (``near``).
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
        return { scores: scores, near: distance > 0 }
      }
    }
    return { scores: new Map(), near: false }
  }

  // This index's hits by score (search.RecordIndex.scored): every token must match; scores
  // add up; ties by record order.
  RecordIndex.prototype.scored = function (query) {
    var totals = null
    var near = false
    var self = this
    queryTokens(query).forEach(function (token) {
      var found = self.tokenScores(token)
      near = near || found.near
      if (totals === null) { totals = found.scores; return }
      var next = new Map()
      found.scores.forEach(function (score, ref) {
        if (totals.has(ref)) next.set(ref, totals.get(ref) + score)
      })
      totals = next
    })
    var ranked = Array.from((totals || new Map()).entries())
    var rounded = function (score) { return Math.round(score * 1e6) / 1e6 }
    ranked.sort(function (a, b) { return rounded(b[1]) - rounded(a[1]) || a[0] - b[0] })
    return {
      hits: ranked.map(function (pair) { return { entry: self.entries[pair[0]], score: pair[1] } }),
      near: near
    }
  }

  // search.ranked: an ID match first (the page's system's, the current runs', the earlier
  // runs'), then the hits matched as written (on an earlier run's page that run's first;
  // then the current runs', then the earlier runs'), then the near misses; within a tier,
  // each index's own order.
  function tier(entry, wanted, here, near) {
    var home = !!here && entry.system === here
    var run = entry.run ? 1 : 0
    if (wanted && entry.id && entry.id.toLowerCase() === wanted) return [0, home ? 0 : 1 + run]
    if (near) return [2, run]
    return [1, home && entry.run ? 0 : 1 + run]
  }

  function ranked(query, lists, here) {
    var found = queryTokens(query)
    var wanted = found.length === 1 ? found[0] : ""
    var phrase = tokens(query).join(" ")
    var keyed = []
    lists.forEach(function (list, position) {
      list.hits.forEach(function (hit, at) {
        var key = tier(hit.entry, wanted, here, list.near)
        // The label is the query ('memory comparison' is that page): first of its tier.
        if (key[0] === 1 && !hit.entry.run && phrase && tokens(hit.entry.label || "").join(" ") === phrase) key = [1, -1]
        keyed.push({ key: key.concat([position, at]), hit: hit })
      })
    })
    keyed.sort(function (a, b) {
      for (var i = 0; i < a.key.length; i++) if (a.key[i] !== b.key[i]) return a.key[i] - b.key[i]
      return 0
    })
    return keyed.map(function (item) { return item.hit })
  }

  // Hits best first, over this index and the earlier runs' one; ``here``: the system of
  // the page searched from ("slug" or "slug/runs/<run>"), or "".
  RecordIndex.prototype.search = function (query, here) {
    var lists = [this.scored(query)]
    if (this.earlier) lists.push(this.earlier.scored(query))
    return ranked(query, lists, here || "")
  }

  scope.kbSearch = {
    tokens: tokens, queryTokens: queryTokens, RecordIndex: RecordIndex, ranked: ranked,
    serializedIndex: serializedIndex
  }
})(typeof self !== "undefined" ? self : this)
