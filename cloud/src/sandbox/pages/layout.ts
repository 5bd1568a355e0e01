/** Escapes text for HTML element content and attribute values. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
:root { --ink:#1d2433; --muted:#5d6678; --line:#d9dee8; --bg:#f5f7fb; --card:#fff; --accent:#2457c5; --ok:#1c7c43; --bad:#b42318; }
* { box-sizing: border-box; }
body { margin:0; font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color:var(--ink); background:var(--bg); }
header { display:flex; align-items:center; gap:24px; padding:12px 24px; background:#111a2e; color:#fff; }
header strong { font-size:15px; letter-spacing:.02em; }
header nav a { color:#c8d3ee; text-decoration:none; margin-right:16px; }
header nav a[aria-current="page"] { color:#fff; border-bottom:2px solid #7aa2ff; padding-bottom:2px; }
main { padding:20px 24px; max-width:1400px; margin:0 auto; }
h1 { font-size:20px; margin:0 0 4px; } h2 { font-size:15px; margin:0 0 10px; }
p.lead { color:var(--muted); margin:0 0 16px; }
.card { background:var(--card); border:1px solid var(--line); border-radius:8px; padding:16px; margin-bottom:16px; }
.grid { display:grid; grid-template-columns: 340px 1fr; gap:16px; align-items:start; }
label { display:block; font-weight:600; font-size:12px; color:var(--muted); margin:10px 0 4px; text-transform:uppercase; letter-spacing:.04em; }
input, select, textarea { width:100%; font:13px ui-monospace, SFMono-Regular, Menlo, monospace; padding:7px 9px; border:1px solid var(--line); border-radius:6px; background:#fff; }
textarea { min-height:140px; resize:vertical; }
button { font:inherit; font-weight:600; padding:7px 14px; border-radius:6px; border:1px solid var(--accent); background:var(--accent); color:#fff; cursor:pointer; }
button.secondary { background:#fff; color:var(--accent); }
.row { display:flex; gap:8px; align-items:end; } .row > * { flex:1; } .row > .narrow { flex:0 0 110px; }
pre { margin:0; padding:12px; background:#0f1729; color:#dbe4ff; border-radius:6px; overflow:auto; max-height:520px; font-size:12.5px; }
ul.endpoints { list-style:none; padding:0; margin:0; } ul.endpoints li { margin:0; }
ul.endpoints button { width:100%; text-align:left; background:none; color:var(--ink); border:0; border-radius:4px; padding:5px 6px; font-weight:400; font-family:ui-monospace, monospace; font-size:12.5px; }
ul.endpoints button:hover { background:#eef2fb; }
.method { display:inline-block; width:52px; font-weight:700; } .GET { color:var(--ok); } .POST { color:var(--accent); } .PATCH { color:#9a5b00; } .DELETE { color:var(--bad); }
ul.endpoints .via { display:block; margin-left:52px; color:var(--muted); }
.group { font-size:11px; text-transform:uppercase; color:var(--muted); margin:12px 0 4px; letter-spacing:.05em; }
.status { font-weight:700; } .status.ok { color:var(--ok); } .status.bad { color:var(--bad); }
table { width:100%; border-collapse:collapse; font-size:12.5px; } th, td { text-align:left; padding:6px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; } td code { font-size:12px; }
.badge { display:inline-block; padding:1px 8px; border-radius:10px; font-size:11.5px; font-weight:600; background:#eef0f4; color:var(--muted); }
.badge.ok { background:#e3f4ea; color:var(--ok); } .badge.bad { background:#fde8e7; color:var(--bad); }
.muted { color:var(--muted); } details pre { margin-top:6px; max-height:240px; }
`;

/** The shell of every sandbox page: header, navigation and the shared stylesheet. */
export function page(input: { title: string; current: '/' | '/webhooks' | '/live'; body: string; script: string }): string {
  const link = (href: string, label: string) =>
    `<a href="${href}"${href === input.current ? ' aria-current="page"' : ''}>${label}</a>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(input.title)} · Erasure sandbox</title><style>${STYLE}</style></head>
<body><header><strong>Erasure sandbox</strong><nav>${link('/', 'API browser')}${link('/webhooks', 'Webhooks')}${link('/live', 'Live API console')}</nav></header>
<main>${input.body}</main><script>${input.script}</script></body></html>`;
}
