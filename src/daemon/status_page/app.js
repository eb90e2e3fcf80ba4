// cuzkd's status page: reads /status.json (its fields: docs/DAEMON.md) every
// two seconds and draws it. Every text from the daemon goes in as
// textContent, never as markup: a key id or a failure's message is data.
'use strict';

const REFRESH_MS = 2000;
const COLORS = ['#2b7bb9', '#d9534f', '#3c9d4e', '#e69b2f', '#8e5bb5', '#1aa3a3', '#b5651d', '#666666'];

const $ = (id) => document.getElementById(id);

function bytes(n) {
  if (n === null || n === undefined) return '–';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (i ? n.toFixed(1) : String(n)) + ' ' + units[i];
}

function seconds(s) {
  if (s >= 1) return s.toFixed(2) + ' s';
  if (s >= 1e-3) return (s * 1e3).toFixed(1) + ' ms';
  return (s * 1e6).toFixed(0) + ' µs';
}

function when(unix) {
  return new Date(unix * 1000).toLocaleTimeString();
}

// The GPUs that hold a key: "GPU 0, GPU 1 (streamed)", or "-" (a bare "0" read as none).
function onGpus(gpus) {
  return gpus.length ? gpus.map((g) => 'GPU ' + g.device + (g.streamed ? ' (streamed)' : '')).join(', ') : '-';
}

function setText(id, text) {
  $(id).textContent = String(text);
}

// Replaces a table's rows: one array of cells per row; a cell is text, or
// {text, cls} for a styled one.
function fillTable(id, rows, empty) {
  const body = $(id).tBodies[0];
  body.replaceChildren();
  if (!rows.length && empty) rows = [[{ text: empty, cls: 'muted', span: $(id).tHead.rows[0].cells.length }]];
  for (const cells of rows) {
    const tr = body.insertRow();
    for (const c of cells) {
      const td = tr.insertCell();
      if (c !== null && typeof c === 'object') {
        td.textContent = String(c.text);
        if (c.cls) td.className = c.cls;
        if (c.span) td.colSpan = c.span;
      } else {
        td.textContent = String(c);
      }
    }
  }
}

// One uPlot chart per element, made at the first data and fed after.
const charts = {};

function chart(id, series, data, yRange, unit) {
  if (charts[id]) {
    charts[id].setData(data);
    return;
  }
  const el = $(id);
  const opts = {
    width: Math.max(el.clientWidth, 300),
    height: 180,
    scales: { x: { time: true }, y: yRange ? { range: yRange } : { auto: true } },
    axes: [{}, { values: (u, vals) => vals.map((v) => v + unit) }],
    series: [{}].concat(series),
  };
  charts[id] = new uPlot(opts, data, el);
}

// A series drawn as steps that end at each interval's end: an idle interval
// is a gap down to 0, as wide as it lasted.
function stepped(label, i, fill) {
  const s = { label, stroke: COLORS[i % COLORS.length], width: 1.5, paths: uPlot.paths.stepped({ align: -1 }) };
  if (fill) s.fill = COLORS[i % COLORS.length] + '33';
  return s;
}

function drawCharts(h) {
  const t = h.end;
  const busy = h.busy.map((b) => b.share.map((v) => 100 * v));
  chart('busy-chart', h.busy.map((b, i) => stepped(b.device === 'cpu' ? 'CPU workers' : 'GPU ' + b.device, i, true)),
        [t].concat(busy), [0, 100], '%');
  const perSecond = (counts) => counts.map((n, i) => (h.seconds[i] > 0 ? n / h.seconds[i] : 0));
  chart('throughput-chart', [stepped('proofs / s', 2, true), stepped('failures / s', 1, false)],
        [t, perSecond(h.proved), perSecond(h.failed)], null, '/s');
  chart('queue-chart', [stepped('partitions queued', 3, false), stepped('partitions running', 0, false)],
        [t, h.queued, h.running], null, '');
}

function drawFleet(f) {
  $('fleet-section').hidden = !f;
  if (!f) return;
  setText('fleet-host', 'this host: ' + f.host);
  const q = f.this_host;
  fillTable('fleet-this-table', [[q.claims, q.reclaims, q.proofs_written, q.failures, q.lease_expiries, q.reconnects,
                                  q.depth < 0 ? '–' : q.depth]]);
  const fleet = f.fleet || {};
  setText('fleet-error', fleet.error ? 'the queue did not answer: ' + fleet.error : '');
  fillTable('fleet-hosts-table', (fleet.hosts || []).map((h) => [h.host, h.claimed, h.proofs_last_minute, h.proofs]),
            'no host holds or proved a partition');
  fillTable('fleet-partitions-table', Object.entries(fleet.partitions || {}).map(([state, n]) => [state, n]));
}

function draw(s) {
  setText('version', s.version);
  setText('backend', s.backend);
  $('draining').hidden = !s.draining;
  setText('proofs-per-second', s.proofs_per_second.toFixed(2));
  setText('partitions-proved', s.totals.partitions_proved);
  setText('partitions-failed', s.totals.partitions_failed);
  setText('jobs-submitted', s.totals.jobs_submitted);
  setText('jobs-rejected', s.totals.jobs_rejected);
  setText('queued-partitions', s.queue.queued_partitions);
  setText('running-partitions', s.queue.running_partitions);
  setText('pending-bytes', bytes(s.queue.pending_bytes));

  fillTable('queue-table', s.queue.by_key.map((g) => [g.key, g.priority, g.jobs_queued, g.jobs_running, g.partitions_left]),
            'nothing waiting');
  setText('stages-window', '(the last ' + s.stages.spans + ' spans, within ' + s.stages.window_s + ' s of the latest)');
  fillTable('stages-table', s.stages.stages.map((st) => [st.stage, st.count, seconds(st.median_s), seconds(st.p95_s)]),
            'no partition proved yet');
  fillTable('gpus-table', s.gpus.map((g) => [
    g.device, g.name,
    g.healthy ? { text: 'healthy', cls: 'good-text' } : { text: 'out: ' + g.fault + (g.recovery_error ? '; reset failed: ' + g.recovery_error : ''), cls: 'bad-text' },
    g.faults, g.recoveries, bytes(g.key_cache_bytes), bytes(g.key_budget_bytes), g.key_uploads, g.key_hits, g.key_evictions,
  ]), 'no GPU (' + s.backend + ' backend)');
  fillTable('keys-table', s.keys.map((k) => [k.id, k.curve, k.domain_size, bytes(k.host_bytes), onGpus(k.gpus), k.jobs]),
    'no key loaded');
  const p = s.host_pool;
  fillTable('pool-table', [[bytes(p.bytes), p.budget_bytes ? bytes(p.budget_bytes) : 'automatic', p.allocations, p.waits]]);
  fillTable('failures-table', s.failures.map((f) => [when(f.time), f.job, f.partition, f.key, f.curve, { text: f.reason, cls: 'bad-text' }, f.message]),
            'none since the start');
  drawFleet(s.fleet);
  drawCharts(s.history);
  setText('updated', 'updated ' + when(s.time));
  document.body.dataset.updated = String(s.time);
}

async function refresh() {
  try {
    const reply = await fetch('/status.json', { cache: 'no-store' });
    if (!reply.ok) throw new Error('HTTP ' + reply.status);
    draw(await reply.json());
    $('updated').classList.remove('bad-text');
  } catch (e) {
    setText('updated', 'cuzkd did not answer: ' + e.message);
    $('updated').classList.add('bad-text');
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
