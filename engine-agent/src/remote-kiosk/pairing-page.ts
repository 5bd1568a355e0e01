const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The form a browser on another machine sees before it may use the kiosk: one field for the code
 * the machine shows on its own screen. Plain words first; why it is asked behind Details.
 */
export function pairingPage(problem?: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pair this browser with the erasure machine</title>
<style>
  body { margin: 0; font: 16px/1.5 system-ui, sans-serif; background: #f4f5f7; color: #1d2433; }
  header { background: #1d2433; color: #fff; padding: 14px 24px; font-weight: 600; }
  main { max-width: 34rem; margin: 48px auto; background: #fff; border-radius: 8px; padding: 28px 32px; box-shadow: 0 1px 3px rgb(0 0 0 / 15%); }
  h1 { font-size: 1.4rem; margin: 0 0 12px; }
  label { display: block; font-weight: 600; margin: 20px 0 6px; }
  input { font: 1.3rem ui-monospace, monospace; letter-spacing: 0.08em; width: 100%; box-sizing: border-box; padding: 8px 10px; border: 1px solid #9aa3b5; border-radius: 6px; text-transform: uppercase; }
  button { margin-top: 16px; font: inherit; font-weight: 600; padding: 8px 20px; border: 0; border-radius: 6px; background: #2454d6; color: #fff; cursor: pointer; }
  .problem { background: #fdecea; color: #8a1c12; border-radius: 6px; padding: 10px 12px; margin: 16px 0 0; }
  details { margin-top: 24px; color: #4a5468; font-size: 0.92rem; }
</style>
</head>
<body>
<header>Erasure kiosk</header>
<main>
  <h1>Pair this browser with the erasure machine</h1>
  <p>Type the pairing code the machine shows on its own screen. Only a paired browser can see and erase its drives.</p>
  ${problem ? `<p class="problem" role="alert">${escapeHtml(problem)}</p>` : ''}
  <form method="post" action="/pair">
    <label for="pairing-code">Pairing code</label>
    <input id="pairing-code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" required autofocus placeholder="XXXX-XXXX-XXXX-XXXX-XXXX">
    <button type="submit">Pair</button>
  </form>
  <details>
    <summary>Details</summary>
    <p>The machine was started with the boot option <code>erasure.agent_listen</code>, which offers its kiosk on port 7071 to the network. The code is printed on the machine's console at boot as <code>remote kiosk pairing code</code> (or was set with <code>erasure.agent_secret</code>). Pairing keeps a cookie for this site in this browser; tools send the code as <code>Authorization: Bearer &lt;code&gt;</code>.</p>
  </details>
</main>
</body>
</html>
`;
}
