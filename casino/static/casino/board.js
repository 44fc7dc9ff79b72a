// Shared bits of the TV boards (issue #13): the room's wall clock in the header.
import { roomTz, lang } from "./fmt.js";

const fmt = new Intl.DateTimeFormat(lang === "cs" ? "cs-CZ" : "en-GB", {
  timeZone: roomTz, hour: "2-digit", minute: "2-digit",
});

export function startWallClock(id = "wall-clock") {
  const el = document.getElementById(id);
  if (!el) return;
  const show = () => { el.textContent = fmt.format(new Date()); };
  show();
  setInterval(show, 5000);
}
