// The lobby API: JSON over HTTP; a refused request throws an ApiError with the server's typed code, and the
// message key and parameters that say why in the person's language (refusals.js errorText).

export class ApiError extends Error {
  constructor(code, message, status, key = "", params = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.key = key;
    this.params = params;
  }
}

async function call(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try { data = await response.json(); } catch { data = null; }
  if (!response.ok) {
    throw new ApiError(data?.code || "error", data?.message || response.statusText, response.status, data?.key || "", data?.params || {});
  }
  return data;
}

// A name is owned by the first browser to use it, and the server's answer to its first use sets the cookie
// that proves it: a table made or joined under that name waits for the name's own request to be answered,
// or the two requests race and the one that loses is refused as using someone else's name.
let nameSettled = Promise.resolve();

// "?name=Ann": whose cookie proves who asks, where a table of the daily challenge is kept secret until played
export function named(name) {
  return name ? `?name=${encodeURIComponent(name)}` : "";
}

export const api = {
  games: () => call("GET", "/api/games"),
  resolve: (game, preset, options) => call("POST", `/api/games/${game}/resolve`, { preset, options }),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: async (body) => { await nameSettled; return call("POST", "/api/tables", body); },
  join: async (id, seat, invite, name) => { await nameSettled; return call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, invite, name: name || null }); },
  claim: (id, claim) => call("POST", `/api/tables/${encodeURIComponent(id)}/claim`, { claim }),
  // the name lets a daily challenge's table be replayed by someone who has played the day (its deals stay secret)
  replay: (id, deal, name) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay/${deal}${named(name)}`),
  person: (name) => {
    const answered = call("POST", "/api/people", { name });
    nameSettled = answered.catch(() => null);
    return answered;
  },
  stats: (name) => call("GET", `/api/people/${encodeURIComponent(name)}/stats`),
  // a name on every device (names.js): one-time codes, passkeys
  keys: (name) => call("GET", `/api/people/${encodeURIComponent(name)}/keys`),
  code: (name) => call("POST", `/api/people/${encodeURIComponent(name)}/codes`),
  take: (code) => call("POST", "/api/people/take", { code }),
  passkeyOptions: (name) => call("POST", `/api/people/${encodeURIComponent(name)}/passkeys/options`),
  addPasskey: (name, ticket, credential) => call("POST", `/api/people/${encodeURIComponent(name)}/passkeys`, { ticket, credential }),
  signInOptions: () => call("POST", "/api/passkeys/options", {}),
  signIn: (ticket, credential) => call("POST", "/api/passkeys/sign-in", { ticket, credential }),
};
