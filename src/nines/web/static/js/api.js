// The lobby API: JSON over HTTP; a refused request throws an ApiError with the server's typed code.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
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
    throw new ApiError(data?.code || "error", data?.message || response.statusText, response.status);
  }
  return data;
}

export const api = {
  games: () => call("GET", "/api/games"),
  resolve: (game, preset, options) => call("POST", `/api/games/${game}/resolve`, { preset, options }),
  tables: () => call("GET", "/api/tables"),
  table: (id) => call("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (body) => call("POST", "/api/tables", body),
  join: (id, seat, invite, name) => call("POST", `/api/tables/${encodeURIComponent(id)}/join`, { seat, invite, name: name || null }),
  claim: (id, claim) => call("POST", `/api/tables/${encodeURIComponent(id)}/claim`, { claim }),
  replay: (id, deal) => call("GET", `/api/tables/${encodeURIComponent(id)}/replay/${deal}`),
  person: (name) => call("POST", "/api/people", { name }),
  stats: (name) => call("GET", `/api/people/${encodeURIComponent(name)}/stats`),
};
