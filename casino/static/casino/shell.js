// Every console page: the log-out button and the notice banner helpers.
import { post, describeError } from "./api.js";

const notice = document.getElementById("notice");
let timer = null;

// Show a message in the banner; kind "error" stays until dismissed or replaced.
export function showNotice(text, kind = "info", { timeout = 6000 } = {}) {
  if (!notice) return;
  notice.textContent = text;
  notice.dataset.kind = kind;
  notice.hidden = false;
  clearTimeout(timer);
  if (kind !== "error") timer = setTimeout(() => { notice.hidden = true; }, timeout);
}
export function showError(err) { showNotice(describeError(err), "error"); }
export function clearNotice() { if (notice) notice.hidden = true; }
// A write that worked takes down an earlier refusal: it read as this write's (found by QA).
export function clearError() { if (notice && notice.dataset.kind === "error") notice.hidden = true; }

if (notice) notice.addEventListener("click", () => { notice.hidden = true; });

const logout = document.getElementById("logout");
if (logout) {
  logout.addEventListener("click", async () => {
    try { await post("/api/v1/auth/logout/"); } catch (err) { /* the session may be gone already */ }
    window.location.href = "/login/";
  });
}

// A form the browser blocked (a required field left empty) sends nothing: a "Done." or a
// refusal left beside it from the last write would read as this one's (found by QA: a
// refusal about the name stayed while the browser stopped a negative guarantee). Clear the
// finished outcomes next to it; an error waiting for Retry or Discard (a lost answer) stays.
document.addEventListener("invalid", (e) => {
  const form = e.target.form;
  if (!form || !form.parentElement) return;
  const finished = ".result.ok, .result.error";
  const beside = [...form.querySelectorAll(finished), ...form.parentElement.querySelectorAll(`:scope > :is(${finished})`)];
  beside.filter((el) => !el.querySelector("button")).forEach((el) => {
    el.className = "result";
    el.textContent = "";
  });
}, true);

// Number fields take what a count or an amount is written with, nothing else. A browser's
// number field also takes "1e3", "+5" and "2.5"; the field's value then reads 1000, or
// the API refuses 2.5 with a field error the cashier does not understand (found by QA).
// Digits always; "-" where the field has no minimum or a negative one (a chip correction);
// "." only where its step is a fraction (a percentage). Typed or pasted alike.
document.addEventListener("beforeinput", (e) => {
  const field = e.target;
  if (!(field instanceof HTMLInputElement) || field.type !== "number") return;
  const text = e.data ?? (e.dataTransfer ? e.dataTransfer.getData("text/plain") : null);
  if (!text) return;
  const minus = field.min === "" || Number(field.min) < 0 ? "-" : "";
  const point = /\.|any/.test(field.step) ? "." : "";
  if (!new RegExp(`^[0-9${minus}${point}]*$`).test(text.trim())) e.preventDefault();
});
