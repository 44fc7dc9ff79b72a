// What the director's console and the clock board say about late registration (TREG-7),
// from the clock payload (ClockSerializer): open or closed once the tournament runs; before
// the start, until when it will run ("until the end of level 4", "until 21:30").
import { time } from "../casino/fmt.js";

export function lateRegistrationText(clock, status, T) {
  if (clock.late_registration_open) return T.open;
  if (status === "registering") {
    if (clock.late_registration_until_level) return `${T.untilLevel} ${clock.late_registration_until_level}`;
    if (clock.late_registration_until) return `${T.until} ${time(clock.late_registration_until).slice(0, 5)}`;
  }
  return T.closed;
}
