import { request, newKey, describeError, setCsrfToken } from "./api.js";

const form = document.getElementById("login-form");
const error = document.getElementById("login-error");
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.hidden = true;
  try {
    const me = await request("POST", "/api/v1/auth/login/", {
      body: { username: form.username.value, password: form.password.value },
      key: newKey(),
    });
    setCsrfToken(me.csrf_token);
    window.location.href = form.dataset.next || "/";
  } catch (err) {
    error.textContent = describeError(err);
    error.hidden = false;
  }
});
