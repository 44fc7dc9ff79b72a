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

// The EN/CS switch comes back to the page as it is now, not as it was loaded: the director's
// chosen tournament (?t=) and the floor's tab (#devices) are kept in the address by the
// page's script (QA: switching language brought the director back to another tournament).
for (const form of document.querySelectorAll("form.lang")) {
  form.addEventListener("submit", () => {
    const next = form.querySelector("input[name=next]");
    if (next) next.value = location.pathname + location.search + location.hash;
  });
}

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

// Number fields send what was typed, or nothing. A browser's number field also takes "1e3",
// "+5" and "2.5" (and reads "1e3" as 1000: the cage sold 1,000 CZK, found by QA); dropping
// such keys instead turned "5000.5" into 50,005 and "-100" into 100, recorded as typed
// (found by QA). So every key goes in, and a field whose text is not a plain number is
// invalid with a message: digits; "-" where the field has no minimum or a negative one (a
// chip correction); "." only where its step is a fraction (a percentage). A form's submit
// is then stopped by the browser, and so is a button's own click: see below.
function allowed(field) {
  const minus = field.min === "" || Number(field.min) < 0 ? "-?" : "";
  const point = /\.|any/.test(field.step) ? "(\\.[0-9]+)?" : "";
  return { pattern: new RegExp(`^${minus}[0-9]+${point}$`), point: Boolean(point) };
}
export function plainNumber(field) {
  field.setCustomValidity("");
  const { pattern, point } = allowed(field);
  const text = field.value;
  const refused = field.dataset.refusedKey && text !== "";
  if (refused || field.validity.badInput || (text !== "" && !pattern.test(text))) {
    field.setCustomValidity(point ? gettext("Write the number in digits, with a decimal point if needed.")
      : gettext("Write a whole number in digits only: no decimal point, comma, sign or exponent."));
    return false;
  }
  return true; // out of range: the browser's check of a form, or the API's refusal, says so
}
const isNumberField = (el) => el instanceof HTMLInputElement && el.type === "number";
// The browser itself drops some keys from a number field ("," and "+" in English): "1500,5"
// reads 15005. Such a key marks the field until something is deleted from it, or the text it
// was typed into is gone (emptied, or replaced: a selection typed over, found by QA).
document.addEventListener("beforeinput", (e) => {
  const field = e.target;
  if (!isNumberField(field)) return;
  if (e.inputType.startsWith("delete")) delete field.dataset.refusedKey;
  const text = e.data ?? (e.dataTransfer ? e.dataTransfer.getData("text/plain") : null);
  if (text && /[^0-9.\-eE]/.test(text)) field.dataset.refusedKey = field.value || " ";
}, true);
document.addEventListener("input", (e) => {
  const field = e.target;
  if (!isNumberField(field)) return;
  const at = field.dataset.refusedKey;
  if (at !== undefined && (field.value === "" || !field.value.startsWith(at.trim()))) {
    delete field.dataset.refusedKey;
  }
  plainNumber(field);
}, true);

// Most writes are a button's click handler, not a form's submit, so the browser's check of
// the form does not stop them. A click on a button is stopped, and the field's message
// shown, when a number field that belongs to it holds something that is not a plain number:
// the fields of its form (or dialog, or section) after the button before it. Closing or
// cancelling is never stopped.
document.addEventListener("click", (e) => {
  const button = e.target instanceof Element ? e.target.closest("button") : null;
  if (!button || button.disabled || button.formNoValidate) return;
  if (button.value === "close" || button.value === "cancel" || /-(cancel|close-dialog)$/.test(button.id)) return;
  const scope = button.form || button.closest("dialog, form, section, fieldset") || document.body;
  const controls = [...scope.querySelectorAll("button, input")];
  const fields = [];
  for (let i = controls.indexOf(button) - 1; i >= 0 && controls[i].tagName !== "BUTTON"; i -= 1) {
    if (isNumberField(controls[i])) fields.unshift(controls[i]);
  }
  const bad = fields.find((f) => !f.disabled && !f.closest("[hidden]") && !plainNumber(f));
  if (!bad) return;
  e.preventDefault();
  e.stopImmediatePropagation();
  bad.reportValidity();
}, true);
