// Changes instead of whole states: after each move the server sends a "patch", the changes that turn
// the state this socket last received into the new one (nines/server/delta.py says how changes are
// written).  A patch whose base is not the revision held here means a message was missed: the
// whole state is asked for again ("resync") and the patch is dropped.

export function applyChanges(document, changes) {
  const root = [structuredClone(document)];
  for (const [op, path, value] of changes) {
    const keys = [0, ...path];
    let parent = root;
    for (const key of keys.slice(0, -1)) parent = parent[key];
    const last = keys[keys.length - 1];
    if (op === "s") parent[last] = value;
    else if (op === "a") parent[last].push(...value);
    else if (op === "d") delete parent[last];
  }
  return root[0];
}

export class StateFollower {
  constructor() { this.state = null; }

  // The message to handle: a state as it is now (a patch made whole), or null when a patch could not
  // be applied (then `askAgain` has asked for the whole state).
  receive(message, askAgain) {
    if (message.type === "state") {
      this.state = message;
      return message;
    }
    if (message.type !== "patch") return message;
    if (!this.state || this.state.rev !== message.base) {
      askAgain();
      return null;
    }
    const { type, rev, ...body } = this.state;
    this.state = { type: "state", ...applyChanges(body, message.changes), rev: message.rev };
    return this.state;
  }

}
