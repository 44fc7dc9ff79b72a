// One staff intent (a click that writes) with its outcome shown next to the form: the
// button is disabled while it runs; a refusal shows the rule in words (describeError); a
// request that got no answer offers "Retry", which resends the SAME Idempotency-Key
// (api.js NetworkError.retry), so a sale is never recorded twice. Until that is settled
// the button stays disabled: pressed again it would send a new key and could record the
// sale twice (found by QA). "Discard" frees it, for a write the staff has checked.
import { NetworkError, describeError } from "./api.js";

const T = () => JSON.parse(document.getElementById("page-i18n").textContent);

export async function intent(button, resultEl, run, onDone) {
  const strings = T();
  if (button) button.disabled = true;
  resultEl.className = "result pending";
  resultEl.textContent = strings.working || "…";
  const finish = (answer) => {
    resultEl.className = "result ok";
    resultEl.textContent = strings.done || "Done.";
    if (onDone) onDone(answer);
  };
  let unsettled = false;
  const fail = (err) => {
    resultEl.className = "result error";
    resultEl.textContent = describeError(err);
    unsettled = err instanceof NetworkError;
    if (!unsettled) return;
    const retry = document.createElement("button");
    retry.type = "button";
    retry.className = "btn small";
    retry.textContent = strings.retry || "Retry";
    retry.addEventListener("click", async () => {
      retry.disabled = true;
      try {
        finish(await err.retry());
        if (button) button.disabled = false;
      } catch (again) { fail(again); }
    });
    const discard = document.createElement("button");
    discard.type = "button";
    discard.className = "btn small";
    discard.textContent = strings.discard || "Discard";
    discard.title = strings.discardHint || "";
    discard.addEventListener("click", () => {
      resultEl.className = "result";
      resultEl.textContent = strings.discardHint || "";
      if (button) button.disabled = false;
    });
    resultEl.append(" ", retry, " ", discard);
  };
  try {
    finish(await run());
  } catch (err) {
    fail(err);
  } finally {
    if (button && !unsettled) button.disabled = false;
  }
}
