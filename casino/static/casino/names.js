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

// A "player" field that takes a name, a nickname or a number (the floor's waiting-list
// join): suggest(input, datalist) fills a <datalist> from the search as the floor types;
// resolve(text) turns the field into a player id. A number, or a picked suggestion ending
// "#id", is that id; other text must match exactly one player, else a PlayerNotFound says
// why (nobody, or several: pick one from the list).
export class PlayerNotFound extends Error {}

async function find(q) {
  const found = await get(`/api/v1/players/search/?q=${encodeURIComponent(q)}`);
  for (const p of found) known.set(p.id, p);
  return found;
}

let suggesting = null;

// Call on each "input" event of such a field (forms drawn again and again can delegate).
export function suggest(input, datalist) {
  clearTimeout(suggesting);
  input.setAttribute("list", datalist.id);
  const q = input.value.trim();
  if (q.length < 2 || /#\d+$/.test(q)) return;
  suggesting = setTimeout(async () => {
    const found = await find(q).catch(() => []);
    if (input.value.trim() !== q) return;
    datalist.replaceChildren(...found.map((p) => {
      const option = document.createElement("option");
      option.value = label(p.id);
      return option;
    }));
  }, 200);
}

export async function resolve(text, words) {
  const q = text.trim();
  const picked = /^(?:.*#)?(\d+)$/.exec(q);
  if (picked) return Number(picked[1]);
  if (!q) throw new PlayerNotFound(words.none);
  const found = await find(q);
  if (found.length === 1) return found[0].id;
  throw new PlayerNotFound(found.length ? words.several : words.none);
}
