// One staff intent (a click that writes) with its outcome shown next to the form: the
// button is disabled while it runs; a refusal shows the rule in words (describeError); a
// request that got no answer offers "Retry", which resends the SAME Idempotency-Key
// (api.js NetworkError.retry), so a sale is never recorded twice.
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
  const fail = (err) => {
    resultEl.className = "result error";
    resultEl.textContent = describeError(err);
    if (err instanceof NetworkError) {
      const retry = document.createElement("button");
      retry.type = "button";
      retry.className = "btn small";
      retry.textContent = strings.retry || "Retry";
      retry.addEventListener("click", async () => {
        retry.disabled = true;
        try { finish(await err.retry()); } catch (again) { fail(again); }
      });
      resultEl.append(" ", retry);
    }
  };
  try {
    finish(await run());
  } catch (err) {
    fail(err);
  } finally {
    if (button) button.disabled = false;
  }
}
