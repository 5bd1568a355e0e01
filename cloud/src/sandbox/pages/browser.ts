import { page } from './layout.js';

/** One endpoint the browser can try, with a sample body to start from. */
interface Endpoint {
  group: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
}

const JTI = '<jti>';
const FP = { system: { manufacturer: 'Dell Inc.', product: 'Latitude 7490', serial: 'B5QVN32', uuid: '4c4c4544-0042-3510-8051-b4c04f564e32' }, storage: [{ model: 'SAMSUNG MZVLB512HAJQ', serial: 'S4DYNX0M123456' }] };

/** Every endpoint of spec 4.2, 4.4 and 4.6, in the order an integrator meets them. */
export const ENDPOINTS: Endpoint[] = [
  { group: 'Tokens', method: 'POST', path: '/sandbox/tokens', body: { account_name: 'Acme Refurb', user_email: 'tech@acme.test', quota_limit: 5 } },
  { group: 'Tokens', method: 'GET', path: '/sandbox/tokens' },
  { group: 'Tokens', method: 'PATCH', path: `/sandbox/tokens/${JTI}`, body: { status: 'suspended' } },
  { group: 'Device calls (/internal)', method: 'POST', path: '/internal/tokens/verify', body: { jti: JTI } },
  { group: 'Device calls (/internal)', method: 'POST', path: '/internal/tokens/validate', body: { jti: JTI } },
  { group: 'Device calls (/internal)', method: 'POST', path: '/internal/assets', body: { jti: JTI, record_id: 'CW-20261122-120000', engine_version: '1.0.0', fingerprint: FP } },
  { group: 'Device calls (/internal)', method: 'POST', path: '/internal/assets/notes', body: { jti: JTI, record_id: 'CW-20261122-120000', notes: 'Scuffed lid' } },
  { group: 'Device calls (/internal)', method: 'POST', path: '/internal/assets/tests', body: { jti: JTI, record_id: 'CW-20261122-120000', tests: { keyboard: { status: 'passed' } } } },
  {
    group: 'Device calls (/internal)', method: 'POST', path: '/internal/wipe_results',
    body: { jti: JTI, job_id: '<job_id>-0', drive_serial: 'S4DYNX0M123456', drive_model: 'SAMSUNG MZVLB512HAJQ', drive_capacity_gb: 512, wipe_method: 'NIST 800-88 R2 Purge', passes_completed: null, wipe_status: 'completed' },
  },
  { group: 'Device calls (/internal)', method: 'POST', path: '/internal/chassis_maps', body: { jti: JTI, record_id: 'CW-20261122-120000', fingerprint: FP, map: { name: 'Bay rack', bays: [{ lane: '0', label: 'Bay 1' }] } } },
  { group: 'Device calls (/internal)', method: 'POST', path: '/internal/chassis_maps/lookup', body: { jti: JTI, system: { uuid: FP.system.uuid, serial: FP.system.serial } } },
  { group: 'Stored rows', method: 'GET', path: '/sandbox/assets' },
  { group: 'Stored rows', method: 'GET', path: '/sandbox/wipe_results' },
  { group: 'Stored rows', method: 'GET', path: '/sandbox/certificates' },
  { group: 'Stored rows', method: 'GET', path: '/certificates/<cert_id>/verify' },
  { group: 'Webhooks', method: 'POST', path: '/sandbox/webhooks', body: { event_type: 'wipe_session_completed', account_id: '<acct_id>', url: 'sandbox://sink' } },
  { group: 'Webhooks', method: 'GET', path: '/sandbox/webhooks' },
  { group: 'Webhooks', method: 'PATCH', path: '/sandbox/webhooks/<whk_id>', body: { active: true } },
  { group: 'Webhooks', method: 'DELETE', path: '/sandbox/webhooks/<whk_id>' },
  { group: 'Webhooks', method: 'POST', path: '/sandbox/webhooks/<whk_id>/test' },
  { group: 'Webhooks', method: 'GET', path: '/sandbox/webhook_deliveries' },
  { group: 'Webhooks', method: 'GET', path: '/sandbox/sink' },
  { group: 'Real API', method: 'POST', path: '/sandbox/live_request', body: { base_url: 'http://127.0.0.1:3000', api_key: '<api key>', path: '/api/v1/assets', query: { page: 1 } } },
  // Issue 31 item 5: the real API's wipes, with the grid's filters.
  { group: 'Real API', method: 'POST', path: '/sandbox/live_request', body: { base_url: 'http://127.0.0.1:3000', api_key: '<api key>', path: '/api/v1/wipes', query: { since: '2026-11-01T00:00:00Z', status: 'completed', page: 1 } } },
  // Issue 31 item 5: a certificate by its number (its PDFs are 302s to presigned files, for a browser or an HTTP client), and the lots.
  { group: 'Real API', method: 'POST', path: '/sandbox/live_request', body: { base_url: 'http://127.0.0.1:3000', api_key: '<api key>', path: '/api/v1/certificates/CW-000001' } },
  { group: 'Real API', method: 'POST', path: '/sandbox/live_request', body: { base_url: 'http://127.0.0.1:3000', api_key: '<api key>', path: '/api/v1/lots', query: { since: '2026-11-01T00:00:00Z', page: 1 } } },
  // A lot's signed PDF: a 302 to a presigned file (the answer shows its status; a browser or an HTTP client follows it).
  { group: 'Real API', method: 'POST', path: '/sandbox/live_request', body: { base_url: 'http://127.0.0.1:3000', api_key: '<api key>', path: '/api/v1/lots/<lotdoc_id>/pdf' } },
];

// Client script: plain ES5-ish JS without template literals, so it embeds in this TS string as is.
const SCRIPT = `
var endpoints = JSON.parse(document.getElementById('endpoints-data').textContent);
var list = document.getElementById('endpoint-list');
var lastGroup = '';
endpoints.forEach(function (e, i) {
  if (e.group !== lastGroup) {
    var g = document.createElement('li'); g.className = 'group'; g.textContent = e.group; list.appendChild(g); lastGroup = e.group;
  }
  var li = document.createElement('li'); var b = document.createElement('button'); b.type = 'button';
  b.innerHTML = '<span class="method ' + e.method + '">' + e.method + '</span>';
  b.appendChild(document.createTextNode(e.path)); b.dataset.index = String(i);
  // The live_request entries share one path: the real API route each one asks for tells them apart.
  if (e.body && typeof e.body.path === 'string') {
    var via = document.createElement('span'); via.className = 'via'; via.textContent = '\u2192 ' + e.body.path; b.appendChild(via);
  }
  b.addEventListener('click', function () { choose(e); }); li.appendChild(b); list.appendChild(li);
});
// Values from earlier answers (the token just minted, its account, a webhook id) replace the
// placeholders of the sample paths and bodies, so a picked endpoint works as it stands.
var known = {};
function remember(row) {
  if (!row || typeof row !== 'object' || Array.isArray(row)) return;
  if (typeof row.jti === 'string') known['<jti>'] = row.jti;
  if (typeof row.account_id === 'string') known['<acct_id>'] = row.account_id;
  if (typeof row.job_id === 'string') known['<job_id>'] = row.job_id;
  if (typeof row.prefix_id === 'string' && row.prefix_id.indexOf('whk_') === 0) known['<whk_id>'] = row.prefix_id;
}
function fill(text) {
  Object.keys(known).forEach(function (placeholder) { text = text.split(placeholder).join(known[placeholder]); });
  return text;
}
function choose(e) {
  document.getElementById('method').value = e.method;
  document.getElementById('path').value = fill(e.path);
  document.getElementById('body').value = e.body === undefined ? '' : fill(JSON.stringify(e.body, null, 2));
}
document.getElementById('request').addEventListener('submit', function (ev) {
  ev.preventDefault();
  var method = document.getElementById('method').value;
  var path = document.getElementById('path').value.trim();
  var text = document.getElementById('body').value.trim();
  var key = document.getElementById('api-key').value.trim();
  var status = document.getElementById('status'); var out = document.getElementById('response');
  var headers = {};
  if (key) headers['Authorization'] = 'Bearer ' + key;
  var init = { method: method, headers: headers };
  if (method !== 'GET' && text !== '') {
    try { JSON.parse(text); } catch (err) { status.className = 'status bad'; status.textContent = 'Body is not valid JSON'; out.textContent = '(nothing sent: fix the body)'; return; }
    headers['Content-Type'] = 'application/json'; init.body = text;
  }
  status.className = 'status'; status.textContent = 'Sending ' + method + ' ' + path + ' …';
  var started = performance.now();
  fetch(path, init).then(function (res) {
    return res.text().then(function (raw) {
      var ms = Math.round(performance.now() - started);
      status.className = 'status ' + (res.ok ? 'ok' : 'bad');
      status.textContent = res.status + ' ' + res.statusText + ' · ' + ms + ' ms';
      var json;
      try { json = JSON.parse(raw); } catch (err) { out.textContent = raw || '(empty body)'; return; }
      out.textContent = JSON.stringify(json, null, 2);
      // Only what a POST created counts: a listing's rows are not "the one just minted".
      if (res.ok && method === 'POST') remember(json);
    });
  }).catch(function (err) { status.className = 'status bad'; status.textContent = 'Request failed: ' + err.message; });
});
choose(endpoints[0]);
`;

/** `GET /`: the interactive API browser (spec 4.6). */
export function browserPage(): string {
  // JSON in a script element: `<` is escaped so no value can close the element.
  const data = JSON.stringify(ENDPOINTS).replace(/</g, '\\u003c');
  return page({
    title: 'API browser',
    current: '/',
    script: SCRIPT,
    body: `<h1>API browser</h1>
<p class="lead">Try every sandbox endpoint. Mint a token first: its <code>jti</code>, the device credential of the <code>/internal/*</code> calls, is then filled into their paths and bodies.</p>
<div class="grid">
  <section class="card"><h2>Endpoints</h2><ul class="endpoints" id="endpoint-list"></ul></section>
  <section>
    <form class="card" id="request">
      <div class="row"><div class="narrow"><label for="method">Method</label>
        <select id="method"><option>GET</option><option>POST</option><option>PATCH</option><option>DELETE</option></select></div>
        <div><label for="path">Path</label><input id="path" autocomplete="off"></div></div>
      <label for="api-key">API key (bearer for /sandbox/*: optional, except for live_request)</label><input id="api-key" type="password" autocomplete="off">
      <label for="body">JSON body</label><textarea id="body" spellcheck="false"></textarea>
      <p><button type="submit" id="send">Send</button></p>
    </form>
    <section class="card"><h2>Response <span id="status" class="status"></span></h2><pre id="response">(nothing sent yet)</pre></section>
  </section>
</div>
<script type="application/json" id="endpoints-data">${data}</script>`,
  });
}
