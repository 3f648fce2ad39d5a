/**
 * The dashboard's script (plain browser JavaScript, no build step). Everything from the library
 * is put on the page with textContent, never as HTML: function code and descriptions come from
 * agents. The token comes in the URL fragment, is kept in sessionStorage and removed from the
 * address bar; changes send it in the x-solo-token header.
 */
export const APP_SCRIPT = String.raw`
"use strict";
(function () {
  var TOKEN_KEY = "solo-assets-token";
  var fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("token")) {
    sessionStorage.setItem(TOKEN_KEY, fragment.get("token"));
    history.replaceState(null, "", location.pathname + location.search);
  }
  var token = sessionStorage.getItem(TOKEN_KEY) || "";
  var selected = null;

  function $(id) { return document.getElementById(id); }
  function text(id, value) { $(id).textContent = value == null ? "" : String(value); }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }
  function cell(row, value) { var td = document.createElement("td"); td.textContent = value == null ? "" : String(value); row.appendChild(td); return td; }
  function say(message, isError) { var m = $("message"); m.textContent = message || ""; m.className = isError ? "error" : ""; }

  function api(method, path, body) {
    var headers = { "accept": "application/json" };
    if (method !== "GET") headers["x-solo-token"] = token;
    if (body !== undefined) headers["content-type"] = "application/json";
    return fetch(path, { method: method, headers: headers, body: body === undefined ? undefined : JSON.stringify(body) })
      .then(function (response) {
        return response.json().then(function (json) {
          if (!response.ok) throw new Error((json && json.error && json.error.message) || ("HTTP " + response.status));
          return json;
        });
      });
  }

  function showTab(name) {
    ["status", "functions", "settings"].forEach(function (tab) {
      $("panel-" + tab).hidden = tab !== name;
      $("tab-" + tab).setAttribute("aria-selected", tab === name ? "true" : "false");
    });
    if (name === "status") loadStatus();
    if (name === "functions") loadFunctions();
    if (name === "settings") loadSettings();
  }

  function loadStatus() {
    return api("GET", "/api/status").then(function (s) {
      text("status-db", s.db_path);
      text("status-envs", s.envs_dir);
      text("status-functions", s.counts.functions);
      text("status-active", s.counts.active);
      text("status-broken", s.counts.broken);
      text("status-unverified", s.counts.unverified);
      text("status-versions", s.counts.versions);
      text("status-embedder", s.embedding.backend + " · " + s.embedding.model + " · " + s.embedding.dimension + " dimensions");
      text("status-critic", s.critic.backend + (s.critic.model ? " · " + s.critic.model : ""));
      text("status-tools", s.gate_tools ? (s.gate_tools.linter + ", " + s.gate_tools.typer + ", sandbox " + (s.gate_tools.sandbox || "unavailable (tests not run)") + ", limits " + s.gate_tools.limits) : "not detected");
      var vectors = $("status-embeddings"); clear(vectors);
      s.embeddings.forEach(function (e) { var tr = document.createElement("tr"); cell(tr, e.model); cell(tr, e.dimension); cell(tr, e.count); vectors.appendChild(tr); });
      var procs = $("status-processes"); clear(procs);
      s.processes.forEach(function (p) { var tr = document.createElement("tr"); tr.className = "process"; cell(tr, p.pid); cell(tr, p.kind); cell(tr, p.started_at); cell(tr, p.detail || ""); procs.appendChild(tr); });
    }).catch(function (e) { say(e.message, true); });
  }

  function loadFunctions() {
    var params = new URLSearchParams();
    var filter = $("filter-text").value.trim();
    var status = $("filter-status").value;
    if (filter) params.set("text", filter);
    if (status) params.set("status", status);
    return api("GET", "/api/functions?" + params.toString()).then(function (result) {
      var rows = $("function-rows"); clear(rows);
      text("function-count", result.total + " function(s)");
      result.functions.forEach(function (f) {
        var tr = document.createElement("tr");
        tr.className = "clickable" + (f.name === selected ? " selected" : "");
        tr.setAttribute("data-name", f.name);
        cell(tr, f.name);
        var badge = document.createElement("span"); badge.className = "badge " + f.status; badge.textContent = f.status;
        cell(tr, "").appendChild(badge);
        cell(tr, f.version);
        cell(tr, f.description);
        tr.addEventListener("click", function () { showFunction(f.name); });
        rows.appendChild(tr);
      });
    }).catch(function (e) { say(e.message, true); });
  }

  function renderGate(gate) {
    var body = $("detail-gate"); clear(body);
    (gate ? gate.steps : []).forEach(function (step) {
      var tr = document.createElement("tr"); tr.className = "gate-step";
      cell(tr, step.step); cell(tr, step.status); cell(tr, step.tool); cell(tr, step.summary);
      body.appendChild(tr);
    });
    var rejection = $("detail-rejection");
    if (gate && gate.rejection) {
      rejection.hidden = false;
      rejection.textContent = gate.rejection.kind + ": " + gate.rejection.message + (gate.rejection.details ? "\n\n" + gate.rejection.details : "");
    } else if (gate && gate.unverified) {
      rejection.hidden = false;
      rejection.textContent = "unverified — " + gate.unverified.code + ": " + gate.unverified.message + "\n" + gate.unverified.suggestion;
    } else {
      rejection.hidden = true;
      rejection.textContent = "";
    }
  }

  function showVersion(name, version) {
    return api("GET", "/api/functions/" + encodeURIComponent(name) + "/versions/" + version).then(function (v) {
      text("detail-version", v.version);
      text("detail-status", v.status);
      $("detail-status").className = "badge " + v.status;
      text("detail-code", v.code);
      renderGate(v.gate);
    }).catch(function (e) { say(e.message, true); });
  }

  function showFunction(name) {
    selected = name;
    return api("GET", "/api/functions/" + encodeURIComponent(name)).then(function (view) {
      var f = view.function;
      $("detail").hidden = false;
      text("detail-name", name);
      $("delete-button").hidden = !f;
      if (f) {
        text("detail-status", f.status);
        $("detail-status").className = "badge " + f.status;
        text("detail-version", f.version);
        text("detail-description", f.description);
        text("detail-signature", f.signature);
        text("detail-tags", f.tags.join(", ") || "none");
        text("detail-dependencies", f.dependencies.join(", ") || "none");
        text("detail-code", f.code);
        renderGate(f.gate);
      } else {
        text("detail-status", "deleted");
        $("detail-status").className = "badge";
        text("detail-code", "");
        renderGate(null);
      }
      var history = $("detail-history"); clear(history);
      view.history.forEach(function (v) {
        var tr = document.createElement("tr"); tr.className = "clickable history-row";
        cell(tr, v.version); cell(tr, v.status); cell(tr, v.saved_at); cell(tr, v.rejection || "");
        tr.addEventListener("click", function () { showVersion(name, v.version); });
        history.appendChild(tr);
      });
      Array.prototype.forEach.call(document.querySelectorAll("#function-rows tr"), function (tr) {
        tr.className = "clickable" + (tr.getAttribute("data-name") === name ? " selected" : "");
      });
    }).catch(function (e) { say(e.message, true); });
  }

  function deleteSelected() {
    if (!selected) return;
    if (!confirm("Delete " + selected + "? Its versions stay in the history.")) return;
    var name = selected;
    api("DELETE", "/api/functions/" + encodeURIComponent(name)).then(function (result) {
      say("Deleted " + result.name + " (" + result.versions_kept + " version(s) kept in the history).");
      selected = null;
      $("detail").hidden = true;
      return loadFunctions();
    }).catch(function (e) { say(e.message, true); });
  }

  function renderSettings(s) {
    $("setting-embedder").value = s.stored.embedder || "auto";
    $("setting-embedding-model").value = s.stored.embeddingModel || "";
    $("setting-embedding-url").value = s.stored.embeddingUrl || "";
    $("setting-embedding-model-path").value = s.stored.embeddingModelPath || "";
    $("setting-critic").value = s.stored.critic || "auto";
    $("setting-critic-model").value = s.stored.criticModel || "";
    $("setting-critic-model-path").value = s.stored.criticModelPath || "";
    text("embedding-effective", "In use: " + s.embedding.backend + " · " + s.embedding.model + " (" + s.embedding.dimension + ")" + (s.embedding.note ? " — " + s.embedding.note : ""));
    text("critic-effective", "In use: " + s.critic.backend + (s.critic.model ? " · " + s.critic.model : "") + ", passes at " + s.critic.threshold + (s.critic.note ? " — " + s.critic.note : ""));
    text("settings-overrides", s.overridden_by_environment.length ? "Set by environment variables (they win over these settings): " + s.overridden_by_environment.join(", ") : "");
    text("api-key-state", s.api_key.set ? "set (" + s.api_key.source + ")" : "not set");
  }

  function loadSettings() {
    return api("GET", "/api/settings").then(renderSettings).catch(function (e) { say(e.message, true); });
  }

  function orNull(value) { value = value.trim(); return value ? value : null; }

  function saveSettings(event) {
    event.preventDefault();
    api("PUT", "/api/settings", {
      embedder: $("setting-embedder").value,
      embedding_model: orNull($("setting-embedding-model").value),
      embedding_url: orNull($("setting-embedding-url").value),
      embedding_model_path: orNull($("setting-embedding-model-path").value),
      critic: $("setting-critic").value,
      critic_model: orNull($("setting-critic-model").value),
      critic_model_path: orNull($("setting-critic-model-path").value),
    }).then(function (s) { renderSettings(s); say("Settings saved. MCP servers started from now on use them; after changing the embedder, re-embed (the button below, or 'solo-assets reindex')."); })
      .catch(function (e) { say(e.message, true); });
  }

  function saveKey(event) {
    event.preventDefault();
    var input = $("api-key-input");
    var key = input.value;
    input.value = "";
    api("PUT", "/api/settings/api-key", { key: key }).then(function (s) { renderSettings(s); say("API key saved."); })
      .catch(function (e) { say(e.message, true); });
  }

  function clearKey() {
    api("DELETE", "/api/settings/api-key").then(function (s) { renderSettings(s); say("API key removed."); })
      .catch(function (e) { say(e.message, true); });
  }

  function reindex() {
    say("Re-embedding…");
    api("POST", "/api/reindex").then(function (r) { say("Re-embedded " + r.embedded + " function(s) with " + r.model + "; " + r.up_to_date + " were up to date."); })
      .catch(function (e) { say(e.message, true); });
  }

  document.addEventListener("DOMContentLoaded", function () {
    text("token-state", token ? "changes enabled" : "read-only: open the URL printed by solo-assets dashboard to make changes");
    Array.prototype.forEach.call(document.querySelectorAll(".tab"), function (button) {
      button.addEventListener("click", function () { showTab(button.getAttribute("data-tab")); });
    });
    $("filter-form").addEventListener("submit", function (event) { event.preventDefault(); loadFunctions(); });
    $("filter-status").addEventListener("change", loadFunctions);
    $("delete-button").addEventListener("click", deleteSelected);
    $("settings-form").addEventListener("submit", saveSettings);
    $("api-key-form").addEventListener("submit", saveKey);
    $("api-key-clear").addEventListener("click", clearKey);
    $("reindex-button").addEventListener("click", reindex);
    showTab("status");
  });
})();
`;
