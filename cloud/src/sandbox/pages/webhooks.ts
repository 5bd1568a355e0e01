import { page } from './layout.js';

/** How often the viewer polls (spec 4.6: every 3 seconds). */
export const VIEWER_REFRESH_MS = 3000;

const SCRIPT = `
function esc(s) { return String(s === null || s === undefined ? '' : s).replace(/[&<>"']/g, function (c) { return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]; }); }
function badge(ok, yes, no) { return '<span class="badge ' + (ok ? 'ok' : 'bad') + '">' + (ok ? yes : no) + '</span>'; }
function pretty(text) { try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { return text; } }
function getJson(path) { return fetch(path).then(function (r) { if (!r.ok) throw new Error(path + ' answered ' + r.status); return r.json(); }); }
function renderSubscriptions(rows) {
  var body = rows.map(function (w) {
    var state = w.active ? badge(true, 'active', '') : badge(false, '', w.auto_disabled_at ? 'auto-disabled' : 'disabled');
    var action = w.active ? '' : '<button type="button" class="secondary" data-enable="' + esc(w.prefix_id) + '">Re-enable</button>';
    return '<tr><td><code>' + esc(w.prefix_id) + '</code></td><td>' + esc(w.event_type) + '</td><td><code>' + esc(w.url) + '</code></td><td>' + state +
      '</td><td>' + esc(w.failure_count) + '</td><td>' + action + '</td></tr>';
  }).join('');
  document.getElementById('subscriptions').innerHTML = body || '<tr><td colspan="6" class="muted">No subscriptions yet: create one with POST /sandbox/webhooks.</td></tr>';
}
function renderCaptures(rows) {
  var body = rows.map(function (c) {
    return '<tr><td>' + esc(c.received_at) + '</td><td>' + esc(c.event_type) + '</td><td><code>' + esc(c.webhook_prefix_id) + '</code></td><td>' +
      badge(c.signature_valid, 'signature valid', 'signature invalid') + '</td><td><details><summary>body</summary><pre>' + esc(pretty(c.body)) + '</pre></details></td></tr>';
  }).join('');
  document.getElementById('captures').innerHTML = body || '<tr><td colspan="5" class="muted">Nothing captured yet.</td></tr>';
}
function renderDeliveries(rows) {
  var body = rows.map(function (d) {
    var tone = d.status === 'delivered' ? 'ok' : d.status === 'failed' ? 'bad' : '';
    return '<tr><td>' + esc(d.created_at) + '</td><td>' + esc(d.event_type) + '</td><td><code>' + esc(d.webhook_url) + '</code></td><td><span class="badge ' + tone + '">' +
      esc(d.status) + '</span></td><td>' + esc(d.response_code) + '</td><td>' + esc(d.last_error) + '</td></tr>';
  }).join('');
  document.getElementById('deliveries').innerHTML = body || '<tr><td colspan="6" class="muted">No deliveries yet.</td></tr>';
}
function refresh() {
  return Promise.all([getJson('/sandbox/webhooks'), getJson('/sandbox/sink'), getJson('/sandbox/webhook_deliveries')]).then(function (all) {
    renderSubscriptions(all[0]); renderCaptures(all[1]); renderDeliveries(all[2]);
    document.getElementById('updated').textContent = 'Updated ' + new Date().toLocaleTimeString();
  }).catch(function (err) { document.getElementById('updated').textContent = 'Refresh failed: ' + err.message; });
}
document.getElementById('subscriptions').addEventListener('click', function (ev) {
  var id = ev.target && ev.target.getAttribute('data-enable');
  if (!id) return;
  fetch('/sandbox/webhooks/' + encodeURIComponent(id), { method: 'PATCH', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ active: true }) }).then(refresh);
});
refresh();
setInterval(refresh, ${VIEWER_REFRESH_MS});
`;

/** `GET /webhooks`: the live viewer of subscriptions, sink captures and the ledger (spec 4.6). */
export function webhooksPage(): string {
  return page({
    title: 'Webhooks',
    current: '/webhooks',
    script: SCRIPT,
    body: `<h1>Webhooks <span class="muted" id="updated" style="font-size:12px;font-weight:400"></span></h1>
<p class="lead">Refreshes every ${VIEWER_REFRESH_MS / 1000} seconds. Subscriptions at <code>sandbox://sink</code> land in the captures below; others are POSTed once.</p>
<section class="card"><h2>Subscriptions</h2><table><thead><tr><th>Id</th><th>Event</th><th>URL</th><th>State</th><th>Failures</th><th></th></tr></thead>
<tbody id="subscriptions"></tbody></table></section>
<section class="card"><h2>Sink captures (newest 100)</h2><table><thead><tr><th>Received</th><th>Event</th><th>Subscription</th><th>Signature</th><th>Body</th></tr></thead>
<tbody id="captures"></tbody></table></section>
<section class="card"><h2>Delivery ledger (newest 100)</h2><table><thead><tr><th>Created</th><th>Event</th><th>URL</th><th>Status</th><th>Response</th><th>Error</th></tr></thead>
<tbody id="deliveries"></tbody></table></section>`,
  });
}
