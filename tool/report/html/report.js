// The HTML report's page: drawn from the JSON report the page holds
// (#report-data: {report: what --json writes, views: per finding, the source
// and output lines around it and its fixes' before/after}), so the page
// cannot say other than the JSON report. tool/report/HtmlReport.cpp embeds
// this file at build time.
(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var report = data.report, views = data.views, stats = report.statistics;

  /// An element with attributes (class, id, dataset via data-*, hidden) and
  /// children (strings become text nodes; null is skipped).
  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      if (attrs[k] === true) e.setAttribute(k, '');
      else if (attrs[k] !== null && attrs[k] !== undefined && attrs[k] !== false)
        e.setAttribute(k, String(attrs[k]));
    });
    (children || []).forEach(function (c) {
      if (c !== null && c !== undefined)
        e.appendChild(typeof c === 'string' || typeof c === 'number'
                      ? document.createTextNode(String(c)) : c);
    });
    return e;
  }
  function row(cells) { return el('tr', {}, cells); }
  function numCell(n) { return el('td', {'class': 'num'}, [n]); }
  function sortedKeys(o) { return Object.keys(o || {}).sort(); }
  function isWave64(d) { return d.id.indexOf('W64-') === 0; }
  function usesOf(d) { return d.related.filter(function (r) { return r.id !== null; }).length; }
  function describe(id) {
    var c = stats.findingsByCheck[id];
    return c ? c.description : '';
  }
  function location(d) { return d.file + (d.line ? ':' + d.line + ':' + d.column : ''); }
  function table(id, cls, heads, rows) {
    return el('table', {id: id, 'class': cls}, [
      el('thead', {}, [row(heads.map(function (h) {
        return el('th', h[1] ? {'class': 'num'} : {}, [h[0]]);
      }))]),
      el('tbody', {}, rows)]);
  }

  /// A window's lines, numbered from its first line; its marked runs in
  /// <span class=markClass>; line hl highlighted. A marked newline at the
  /// start of a line shows as a marked blank, so that a deleted line shows.
  function renderLines(win, markClass, hl) {
    var text = '', marked = [];
    win.runs.forEach(function (r) {
      text += r[0];
      for (var i = 0; i < r[0].length; i++) marked.push(r[1]);
    });
    marked.push(win.end);
    var pre = [], lineNo = win.first, i = 0;
    while (i <= text.length) {
      var end = text.indexOf('\n', i);
      if (end < 0) end = text.length;
      if (i === text.length && i !== 0 && text[i - 1] === '\n') break;
      var shown = end > i && text[end - 1] === '\r' ? end - 1 : end;
      var line = el('span', {'class': lineNo === hl ? 'ln hl' : 'ln'},
                    [el('span', {'class': 'no'}, [lineNo])]);
      var j = i;
      while (j < shown) {
        var k = j;
        while (k < shown && marked[k] === marked[j]) k++;
        var piece = text.slice(j, k);
        line.appendChild(marked[j] ? el('span', {'class': markClass}, [piece])
                                   : document.createTextNode(piece));
        j = k;
      }
      if (shown === i && shown < marked.length && marked[shown])
        line.appendChild(el('span', {'class': markClass}, [' ']));
      pre.push(line);
      lineNo++;
      i = end + 1;
    }
    return pre;
  }
  function pane(title, cls, lines) {
    return el('div', {'class': 'pane'}, [el('div', {'class': 'pane-title'}, [title]),
                                        el('pre', {'class': 'code ' + cls}, lines)]);
  }

  function header() {
    var g = report.gate, run = report.run, tool = report.tool;
    var meta = ['cu2dcu ' + tool.version + ' (LLVM ' + tool.llvmVersion + ') \u00b7 input ',
                el('code', {}, [run.inputRoot])];
    if (run.output !== null) meta.push(' \u00b7 output ', el('code', {}, [run.output]));
    meta.push(' \u00b7 ' + report.files.length + ' files in ' + stats.seconds.toFixed(2) + ' s');
    var gate = g.failed ? 'CI gate failed: ' + g.reasons.join('; ')
                        : 'CI gate passed (--fail-on=' + g.failOn +
                          (g.maxWarnings !== null ? ', --max-warnings=' + g.maxWarnings : '') + ')';
    return el('header', {}, [el('h1', {}, ['cu2dcu report']), el('p', {'class': 'meta'}, meta),
                             el('p', {'class': 'gate ' + (g.failed ? 'fail' : 'pass'), id: 'gate'},
                                [gate])]);
  }

  function summary() {
    var f = stats.files, n = stats.findings;
    var cards = [['', f.translated, 'files translated', 'translated'],
                 ['', f.unchanged, 'files unchanged', 'unchanged'],
                 ['', f.copied, 'files copied', 'copied'],
                 [f.failed ? 'error' : '', f.failed, 'files failed', 'failed'],
                 ['', stats.parsed.ast, 'parsed with the AST', 'ast'],
                 ['', stats.parsed.lexical, 'translated lexically', 'lexical'],
                 ['', stats.apiRenames, 'API names rewritten', 'api'],
                 ['', stats.launchesRewritten, 'kernel launches rewritten', 'launches'],
                 ['', stats.linesChanged, 'lines changed', 'lines'],
                 [stats.unsupportedUses ? 'error' : '', stats.unsupportedUses,
                  'unsupported API uses', 'unsupported'],
                 ['error', n.error, 'errors', 'errors'],
                 ['warning', n.warning, 'warnings', 'warnings'],
                 ['note', n.note, 'notes', 'notes']];
    if (report.gate.baseline) cards.push(['', n.baselined, 'accepted by the baseline', 'baselined']);
    return el('section', {id: 'summary', 'class': 'cards'}, cards.map(function (c) {
      return el('div', {'class': 'card ' + c[0], id: 'sum-' + c[3]},
                [el('div', {'class': 'n'}, [c[1]]), el('div', {'class': 'l'}, [c[2]])]);
    }));
  }

  function filterLink(kind, value, title) {
    var a = {'class': 'mono', href: '#findings', title: title};
    a['data-filter-' + kind] = value;
    return el('a', a, [value]);
  }

  /// Findings per check (wave64 first) and per file; each name filters the table.
  function counts() {
    var byCheck = {}, byFile = {};
    report.diagnostics.forEach(function (d) {
      var c = byCheck[d.id] = byCheck[d.id] || [0, 0];
      c[0]++; c[1] += usesOf(d);
      var f = byFile[d.file] = byFile[d.file] || [0, 0];
      f[0] += isWave64(d) ? 1 : 0; f[1]++;
    });
    var checks = sortedKeys(byCheck).sort(function (a, b) {
      return (a.indexOf('W64-') === 0 ? 0 : 1) - (b.indexOf('W64-') === 0 ? 0 : 1);
    });
    return el('section', {id: 'counts', 'class': 'two'}, [
      el('div', {}, [el('h3', {}, ['By check']),
        table('counts-check', 'grid', [['Check'], ['Findings', 1], ['Uses folded in', 1]],
              checks.map(function (id) {
                return row([el('td', {}, [filterLink('check', id)]), numCell(byCheck[id][0]),
                            numCell(byCheck[id][1])]);
              }))]),
      el('div', {}, [el('h3', {}, ['By file']), el('div', {'class': 'scroll'}, [
        table('counts-file', null, [['File'], ['Wave64', 1], ['All', 1]],
              sortedKeys(byFile).map(function (f) {
                return row([el('td', {}, [filterLink('file', f)]), numCell(byFile[f][0]),
                            numCell(byFile[f][1])]);
              }))])])]);
  }

  function select(id, allLabel, values) {
    return el('select', {id: id}, [el('option', {value: ''}, [allLabel])].concat(
      values.map(function (v) { return el('option', {value: v}, [v]); })));
  }

  function filters() {
    var ids = {}, files = {};
    report.diagnostics.forEach(function (d) { ids[d.id] = 1; files[d.file] = 1; });
    return el('div', {'class': 'filters'}, [
      el('label', {}, ['Check ', select('f-check', 'all checks', sortedKeys(ids))]),
      el('label', {}, ['Severity ', select('f-severity', 'all', ['error', 'warning', 'note'])]),
      el('label', {}, ['File ', select('f-file', 'all files', sortedKeys(files))]),
      report.gate.baseline ? el('label', {}, [el('input', {type: 'checkbox', id: 'f-new'}),
                                              ' new only']) : null,
      el('label', {}, [el('input', {type: 'checkbox', id: 'f-fix'}), ' with a fix']),
      el('input', {type: 'search', id: 'f-text', placeholder: 'Search messages',
                   'aria-label': 'Search messages'}),
      el('button', {type: 'button', id: 'expand-all'}, ['Expand all']),
      el('button', {type: 'button', id: 'collapse-all'}, ['Collapse all']),
      el('span', {id: 'f-count'})]);
  }

  /// The uses folded into it, its baseline state, and what its first fix
  /// writes (what --fix-wave64 would change).
  function badges(d) {
    var out = [], uses = usesOf(d);
    if (uses) out.push(el('span', {'class': 'uses'}, [uses + (uses === 1 ? ' use' : ' uses')]));
    if (d.baseline === 'new')
      out.push(el('span', {'class': 'new', title: 'not in the baseline'}, ['new']));
    if (d.fixes.length) {
      var f = d.fixes[0];
      out.push(el('span', {'class': 'fixtext', title: f.description},
                  [(f.applied ? 'fixed: ' : 'fix: ') + f.replacement]));
    }
    return out;
  }

  function related(d, view) {
    if (!d.related.length) return null;
    var uses = usesOf(d);
    return el('div', {'class': 'fix related'}, [
      el('p', {'class': 'fix-title'}, [uses ? 'Uses of this definition (' + uses + ')'
                                            : 'Definition']),
      el('ul', {'class': 'related'}, d.related.map(function (r, k) {
        var line = view.related[k];
        return el('li', {}, [el('span', {'class': 'mono'}, [r.file + ':' + r.line]), ' ',
                             line === null ? null : el('code', {}, [line]),
                             line === null ? null : ' ',
                             '\u2014 ' + (r.id === null ? r.message : r.id + ': ' + r.message)]);
      }))]);
  }

  function fixPanes(fix, win) {
    return el('div', {'class': 'fix'}, [
      el('p', {'class': 'fix-title'}, ['Fix: ' + fix.description].concat(
        fix.applied ? [' ', el('span', {'class': 'applied'}, ['(applied)'])]
                    : [' (suggested, not applied)'])),
      el('div', {'class': 'panes'}, [
        pane('Before', 'fix-before', renderLines(win.before, 'del', 0)),
        pane('After', 'fix-after', renderLines(win.after, 'ins', 0))])]);
  }

  /// The description, source and output around the finding, and its fixes.
  function details(d, view, fileStatus) {
    var parts = [el('p', {'class': 'check-desc'}, [describe(d.id) + ' ',
                   el('a', {href: d.helpUri}, ['Documentation of ' + d.id])]),
                 related(d, view)];
    if (view.context === 'missing') {
      parts.push(el('p', {'class': 'check-desc'},
                    ['The file is not among the inputs; no source to show.']));
    } else if (view.context === 'file') {
      parts.push(el('p', {'class': 'check-desc'}, ['This finding is about the whole file.']));
    } else {
      parts.push(el('div', {'class': 'panes'}, [
        pane('CUDA source, ' + d.file, 'src', renderLines(view.source, 'mark', d.line)),
        pane('HIP output (' + (fileStatus === 'translated' ? 'changes marked' : fileStatus) + ')',
             'out', renderLines(view.output, 'ins', 0))]));
      d.fixes.forEach(function (fix, k) { parts.push(fixPanes(fix, view.fixes[k])); });
    }
    return el('tr', {'class': 'detail', hidden: true},
              [el('td', {colspan: 4, 'class': 'detail'}, parts)]);
  }

  function finding(d, i, fileStatus) {
    var baseline = d.baseline === null ? '' : d.baseline;
    var loc = location(d);
    return el('tbody', {'class': 'finding', id: 'finding-' + (i + 1), 'data-check': d.id,
                        'data-severity': d.severity, 'data-file': d.file,
                        'data-baseline': baseline, 'data-fix': d.fixes.length ? '1' : '0',
                        'data-search': (d.id + ' ' + loc + ' ' + d.message).toLowerCase()}, [
      el('tr', {'class': 'row', tabindex: 0, 'aria-expanded': 'false'}, [
        el('td', {}, [el('span', {'class': 'sev ' + d.severity}, [d.severity]),
                      baseline === 'unchanged'
                        ? el('span', {'class': 'known', title: 'accepted by the baseline'},
                             ['known']) : null]),
        el('td', {}, [el('a', {'class': 'mono', href: d.helpUri}, [d.id])]),
        el('td', {'class': 'mono'}, [loc]),
        el('td', {}, [d.message].concat(badges(d)))]),
      details(d, views[i], fileStatus)]);
  }

  /// The order a reviewer works in: the wave64 findings first (a definition
  /// counts once, its uses are folded under it), then the translator's.
  function findings() {
    var diags = report.diagnostics, statusOf = {};
    report.files.forEach(function (f) { statusOf[f.path] = f.status; });
    var order = diags.map(function (d, i) { return i; });
    var wave64 = order.filter(function (i) { return isWave64(diags[i]); });
    order = wave64.concat(order.filter(function (i) { return !isWave64(diags[i]); }));
    var rows = [el('thead', {}, [row([el('th', {style: 'width:110px'}, ['Severity']),
                                      el('th', {style: 'width:190px'}, ['Check']),
                                      el('th', {style: 'width:260px'}, ['Location']),
                                      el('th', {}, ['Message'])])])];
    order.forEach(function (i, position) {
      if (position === 0 || position === wave64.length)
        rows.push(el('tbody', {'class': 'group'}, [row([el('th', {colspan: 4}, [
          position < wave64.length ? 'Wavefront-64 findings (' + wave64.length + ')'
                                   : 'Translation findings (' + (order.length - wave64.length) + ')'
        ])])]));
      rows.push(finding(diags[i], i, statusOf[diags[i].file]));
    });
    return el('section', {id: 'findings'}, [
      el('h2', {}, ['Findings']), filters(),
      diags.length ? null : el('p', {'class': 'empty', id: 'no-findings'}, ['No findings.']),
      el('p', {'class': 'empty', id: 'no-match', hidden: true},
         ['No finding matches the filters.']),
      el('table', {id: 'findings-table', hidden: !diags.length}, rows)]);
  }

  function statistics() {
    var byFamily = stats.apiRenamesByFamily, byName = stats.apiRenamesByName;
    var familyRows = sortedKeys(byFamily).map(function (f) {
      return row([el('td', {}, [f]), numCell(byFamily[f])]);
    }).concat([['kernel launches', stats.launchesRewritten],
               ['includes', stats.includesRewritten],
               ['symbol arguments', stats.symbolArgumentsRewritten],
               ['wave64 fixes', stats.wave64FixesApplied],
               ['launch-bounds arguments removed', stats.launchBoundsArgumentsRemoved]]
              .map(function (r) { return row([el('td', {}, [r[0]]), numCell(r[1])]); }));
    var checkRows = sortedKeys(stats.findingsByCheck).map(function (id) {
      var c = stats.findingsByCheck[id];
      return row([el('td', {}, [filterLink('check', id, 'Show only these findings')]),
                  numCell(c.count),
                  el('td', {}, [c.description + ' ', el('a', {href: c.helpUri}, ['docs'])])]);
    });
    var names = sortedKeys(byName).sort(function (a, b) { return byName[b] - byName[a]; });
    var fileRows = report.files.map(function (f) {
      return row([el('td', {'class': 'mono'}, [f.path]),
                  el('td', {'class': 'status-' + f.status}, [f.status]),
                  el('td', {}, [f.parseMode === 'none' ? '\u2013' : f.parseMode]),
                  numCell(f.linesChanged), numCell(f.findings),
                  el('td', {}, [f.reason === null ? '' : f.reason])]);
    });
    return el('section', {id: 'statistics'}, [
      el('h2', {}, ['Translation statistics']),
      el('div', {'class': 'two'}, [
        el('div', {}, [
          el('h3', {}, ['API names rewritten per family']),
          table('stats-family', 'grid', [['Family'], ['Rewrites', 1]], familyRows),
          el('h3', {}, ['Findings per check']),
          table('stats-checks', 'grid', [['Check'], ['Findings', 1], ['Description']], checkRows)]),
        el('div', {}, [el('h3', {}, ['API names rewritten']), el('div', {'class': 'scroll'}, [
          table('stats-names', null, [['CUDA name'], ['Rewrites', 1]], names.map(function (n) {
            return row([el('td', {'class': 'mono'}, [n]), numCell(byName[n])]);
          }))])])]),
      el('h3', {}, ['Files']),
      el('div', {'class': 'scroll'}, [table('stats-files', null,
        [['File'], ['Status'], ['Parsed'], ['Lines changed', 1], ['Findings', 1], ['Note']],
        fileRows)])]);
  }

  function footer() {
    var docs = report.run.docsBase;
    return el('footer', {}, ['Generated by cu2dcu ' + report.tool.version +
                             '. Finding ids link to their documentation (',
                             el('a', {href: docs + 'findings.md'}, ['findings.md']), ', ',
                             el('a', {href: docs + 'checks/'}, ['checks/']), ').']);
  }

  /// Filters, details that open and close, and links that filter.
  function wire() {
    var rows = Array.prototype.slice.call(document.querySelectorAll('tbody.finding'));
    var byId = function (id) { return document.getElementById(id); };
    var check = byId('f-check'), sev = byId('f-severity'), file = byId('f-file');
    var text = byId('f-text'), newOnly = byId('f-new'), count = byId('f-count');
    var none = byId('no-match'), withFix = byId('f-fix');
    function apply() {
      var q = text.value.trim().toLowerCase(), shown = 0;
      rows.forEach(function (r) {
        var ok = (!check.value || r.dataset.check === check.value) &&
                 (!sev.value || r.dataset.severity === sev.value) &&
                 (!file.value || r.dataset.file === file.value) &&
                 (!newOnly || !newOnly.checked || r.dataset.baseline !== 'unchanged') &&
                 (!withFix.checked || r.dataset.fix === '1') &&
                 (!q || r.dataset.search.indexOf(q) >= 0);
        r.hidden = !ok;
        if (ok) shown++;
      });
      count.textContent = 'Showing ' + shown + ' of ' + rows.length + ' findings';
      none.hidden = !(rows.length > 0 && shown === 0);
    }
    function toggle(tb, open) {
      var detail = tb.querySelector('tr.detail');
      var show = open === undefined ? detail.hidden : open;
      detail.hidden = !show;
      tb.classList.toggle('open', show);
      tb.querySelector('tr.row').setAttribute('aria-expanded', show ? 'true' : 'false');
    }
    [check, sev, file, newOnly, withFix].forEach(function (e) {
      if (e) e.addEventListener('change', apply);
    });
    text.addEventListener('input', apply);
    rows.forEach(function (tb) {
      var r = tb.querySelector('tr.row');
      r.addEventListener('click', function (e) { if (!e.target.closest('a')) toggle(tb); });
      r.addEventListener('keydown', function (e) {
        if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); toggle(tb); }
      });
    });
    byId('expand-all').addEventListener('click', function () {
      rows.forEach(function (tb) { if (!tb.hidden) toggle(tb, true); });
    });
    byId('collapse-all').addEventListener('click', function () {
      rows.forEach(function (tb) { toggle(tb, false); });
    });
    Array.prototype.forEach.call(document.querySelectorAll('[data-filter-check],[data-filter-file]'),
                                 function (a) {
      a.addEventListener('click', function () {
        check.value = a.getAttribute('data-filter-check') || '';
        file.value = a.getAttribute('data-filter-file') || '';
        sev.value = ''; text.value = ''; apply();
      });
    });
    apply();
  }

  [header(), summary(), counts(), findings(), statistics(), footer()].forEach(function (part) {
    document.body.appendChild(part);
  });
  wire();
})();
