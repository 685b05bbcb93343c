// Dashboard API client: JSON calls to this server, with the pasted admin key (sessionStorage) where one is set.

/** `/worlds/<id>` when the page belongs to one of the server's other worlds, else '' (the default world). */
export const BASE = /^\/worlds\/[^/]+/.exec(location.pathname)?.[0] ?? '';

const KEY_ITEM = `compsim.adminKey${BASE}`;

/** The admin key of this tab, or ''. */
export function adminKey() {
  return sessionStorage.getItem(KEY_ITEM) ?? '';
}

/** Stores (or, with '', forgets) the admin key for this tab. */
export function setAdminKey(key) {
  if (key) sessionStorage.setItem(KEY_ITEM, key);
  else sessionStorage.removeItem(KEY_ITEM);
}

/** An answer: HTTP status and parsed JSON body (null when not JSON). `path` is the API path in this page's world. */
export async function call(method, path, { body, auth = false } = {}) {
  const headers = {};
  const key = adminKey();
  if (auth && key) headers.authorization = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(BASE + path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  let json = null;
  try {
    json = await res.json();
  } catch {
    json = null;
  }
  return { status: res.status, body: json };
}

/** GET that throws on a non-2xx answer, with the API's own error message. */
export async function get(path, options) {
  const res = await call('GET', path, options);
  if (res.status >= 400) throw new Error(res.body?.error ?? `${path}: HTTP ${res.status}`);
  return res.body;
}
