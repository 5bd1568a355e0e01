import { escapeHtml, page } from './layout.js';

const SCRIPT = `
document.getElementById('live').addEventListener('submit', function (ev) {
  ev.preventDefault();
  var status = document.getElementById('status'); var out = document.getElementById('response');
  var queryText = document.getElementById('query').value.trim();
  var body = { base_url: document.getElementById('base-url').value.trim(), api_key: document.getElementById('api-key').value.trim(), path: document.getElementById('path').value.trim() };
  if (queryText !== '') {
    try { body.query = JSON.parse(queryText); } catch (err) { status.className = 'status bad'; status.textContent = 'Query is not valid JSON'; out.textContent = '(nothing sent: fix the query)'; return; }
  }
  status.className = 'status'; status.textContent = 'Sending GET ' + body.path + ' …';
  // The key also signs the caller in: the sandbox sends live requests only for a key the web application accepts.
  var headers = { 'Content-Type': 'application/json' };
  if (body.api_key !== '') headers['Authorization'] = 'Bearer ' + body.api_key;
  fetch('/sandbox/live_request', { method: 'POST', headers: headers, body: JSON.stringify(body) })
    .then(function (res) { return res.json().then(function (json) { return { res: res, json: json }; }); })
    .then(function (r) {
      if (r.res.status !== 200) { status.className = 'status bad'; status.textContent = 'Sandbox answered ' + r.res.status + ': ' + (r.json.error || ''); out.textContent = JSON.stringify(r.json, null, 2); return; }
      status.className = 'status ' + (r.json.ok ? 'ok' : 'bad'); status.textContent = 'Real API answered ' + r.json.status;
      out.textContent = r.json.body === null ? '(empty body)' : JSON.stringify(r.json.body, null, 2);
    })
    .catch(function (err) { status.className = 'status bad'; status.textContent = 'Request failed: ' + err.message; });
});
`;

/** `GET /live`: the console for the real public API, through `POST /sandbox/live_request` (spec 4.6). */
export function livePage(webappBaseUrl: string): string {
  return page({
    title: 'Live API console',
    current: '/live',
    script: SCRIPT,
    body: `<h1>Live API console</h1>
<p class="lead">Read-only GET requests to the real public API (<code>/api/…</code>), sent by the sandbox with your API key as bearer. The key signs you in too: the sandbox sends nothing for a key the web application does not accept, and never to an internal address.</p>
<div class="grid">
<form class="card" id="live">
  <label for="base-url">Base URL</label><input id="base-url" value="${escapeHtml(webappBaseUrl)}" autocomplete="off">
  <label for="api-key">API key</label><input id="api-key" type="password" autocomplete="off">
  <label for="path">Path</label><input id="path" value="/api/v1/assets" autocomplete="off">
  <label for="query">Query (JSON object)</label><textarea id="query" spellcheck="false" style="min-height:80px">{"page": 1}</textarea>
  <p><button type="submit">Send</button></p>
</form>
<section class="card"><h2>Response <span id="status" class="status"></span></h2><pre id="response">(nothing sent yet)</pre></section>
</div>`,
  });
}
