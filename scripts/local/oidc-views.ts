/**
 * The local hosted-UI page: plain HTML, no JavaScript, a form that POSTs `username` and `password`.
 * Every interpolated value goes through `escapeHtml`: the client name and email come from the request.
 */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f8fb;margin:0;display:grid;place-items:center;min-height:100vh}
main{background:#fff;padding:2rem;border-radius:8px;box-shadow:0 1px 4px #0002;width:min(22rem,90vw)}
h1{color:#007ba7;font-size:1.4rem;margin-top:0}label{display:block;margin:.8rem 0 .2rem}
input{width:100%;padding:.5rem;box-sizing:border-box}button{margin-top:1.2rem;width:100%;padding:.6rem;background:#007ba7;color:#fff;border:0;border-radius:4px;font-size:1rem}
.error{color:#a00;background:#fee;padding:.5rem;border-radius:4px}`;

export function signInPage(options: { action: string; clientLabel: string; email?: string; error?: string }): string {
  const error = options.error
    ? `<p class="error" role="alert" id="sign-in-error">${escapeHtml(options.error)}</p>`
    : '';
  return `<!doctype html>
<html lang="en-GB">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in to Verity</title><style>${STYLE}</style></head>
<body><main>
<h1>Sign in to Verity</h1>
<p>${escapeHtml(options.clientLabel)} (local sign-in)</p>
${error}
<form method="post" action="${escapeHtml(options.action)}"${options.error ? ' aria-describedby="sign-in-error"' : ''}>
<label for="username">Email</label>
<input id="username" name="username" type="email" autocomplete="username" required value="${escapeHtml(options.email ?? '')}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
</form>
</main></body></html>`;
}

export function errorPage(title: string, detail: string): string {
  return `<!doctype html><html lang="en-GB"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></main></body></html>`;
}
