const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

// The same palette and type as the React pages (web/src/styles.css), inlined so the form
// renders with no script and no other request.
const STYLE = `
*{box-sizing:border-box}body{margin:0;font:14px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;
color:#1f2937;background:#f4f6f9;display:grid;place-items:center;min-height:100vh}
main{width:min(380px,92vw);background:#fff;border:1px solid #e3e8ef;border-radius:10px;padding:32px;
box-shadow:0 8px 24px rgba(15,23,42,.06)}
.brand{display:flex;align-items:center;gap:10px;font-weight:650;font-size:17px;margin-bottom:4px;color:#0f172a}
.mark{width:28px;height:28px;border-radius:7px;background:#1d4ed8;display:grid;place-items:center;color:#fff;font-size:15px}
p.sub{margin:0 0 24px;color:#64748b}
label{display:block;font-weight:550;margin:14px 0 6px}
input{width:100%;padding:9px 11px;border:1px solid #cbd5e1;border-radius:6px;font:inherit}
input:focus{outline:2px solid #bfdbfe;border-color:#2563eb}
button{margin-top:22px;width:100%;padding:10px;border:0;border-radius:6px;background:#1d4ed8;color:#fff;
font:inherit;font-weight:600;cursor:pointer}button:hover{background:#1e40af}
.error{margin:0 0 8px;padding:9px 11px;border-radius:6px;background:#fef2f2;color:#991b1b;border:1px solid #fecaca}`;

/** The sign-in form (`GET /login`), optionally with an error and the fields to keep. */
export function loginPage(options: { error?: string | undefined; next?: string | undefined; email?: string | undefined }): string {
  const error = options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : '';
  const next = options.next ? `<input type="hidden" name="next" value="${escapeHtml(options.next)}">` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sign in · Erasure</title><style>${STYLE}</style></head>
<body><main>
<div class="brand"><span class="mark">✓</span>Erasure</div>
<p class="sub">Sign in to your account</p>
${error}
<form method="post" action="/login">
${next}
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main></body></html>`;
}
