// Player names for staff consoles that list players by id (tournament entries, table
// plans): GET /api/v1/players/search/?ids=... (search_players; cashier, floor, director),
// cached for the page's life. label(id) is "Name (nickname) #id", or "#id" until known.
import { get } from "./api.js";

const known = new Map();

export async function learn(ids) {
  const missing = [...new Set(ids)].filter((id) => id && !known.has(id));
  for (let i = 0; i < missing.length; i += 500) {
    const chunk = missing.slice(i, i + 500);
    const found = await get(`/api/v1/players/search/?ids=${chunk.join(",")}`);
    for (const p of found) known.set(p.id, p);
    for (const id of chunk) if (!known.has(id)) known.set(id, null);
  }
}

export function label(id) {
  const p = known.get(id);
  if (!p) return `#${id}`;
  return `${p.name}${p.nickname ? ` (${p.nickname})` : ""} #${id}`;
}
