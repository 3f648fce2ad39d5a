/** The dashboard's one page; app.js fills it from /api/. */
export const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Solo assets</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header>
  <h1>Solo assets</h1>
  <nav>
    <button type="button" class="tab" data-tab="status" id="tab-status">Status</button>
    <button type="button" class="tab" data-tab="functions" id="tab-functions">Functions</button>
    <button type="button" class="tab" data-tab="settings" id="tab-settings">Settings</button>
  </nav>
  <p id="token-state" class="muted"></p>
</header>
<main>
  <p id="message" role="status"></p>

  <section id="panel-status" class="panel">
    <h2>Library</h2>
    <dl class="facts">
      <dt>Database</dt><dd id="status-db"></dd>
      <dt>Environments</dt><dd id="status-envs"></dd>
      <dt>Functions</dt><dd id="status-functions"></dd>
      <dt>Active</dt><dd id="status-active"></dd>
      <dt>Broken</dt><dd id="status-broken"></dd>
      <dt>Unverified</dt><dd id="status-unverified"></dd>
      <dt>Versions</dt><dd id="status-versions"></dd>
      <dt>Embedder</dt><dd id="status-embedder"></dd>
      <dt>Critic</dt><dd id="status-critic"></dd>
      <dt>Gate tools</dt><dd id="status-tools"></dd>
    </dl>
    <h2>Vectors</h2>
    <table><thead><tr><th>Model</th><th>Dimension</th><th>Vectors</th></tr></thead><tbody id="status-embeddings"></tbody></table>
    <h2>Processes using the library</h2>
    <table><thead><tr><th>PID</th><th>Kind</th><th>Started</th><th>Detail</th></tr></thead><tbody id="status-processes"></tbody></table>
  </section>

  <section id="panel-functions" class="panel" hidden>
    <form id="filter-form" class="row">
      <input id="filter-text" type="search" placeholder="Filter by name, description or tag" aria-label="Filter">
      <select id="filter-status" aria-label="Status">
        <option value="">All statuses</option>
        <option value="active">active</option>
        <option value="broken">broken</option>
        <option value="unverified">unverified</option>
      </select>
      <button type="submit">Filter</button>
      <span id="function-count" class="muted"></span>
    </form>
    <div class="split">
      <table class="list"><thead><tr><th>Name</th><th>Status</th><th>Version</th><th>Description</th></tr></thead><tbody id="function-rows"></tbody></table>
      <article id="detail" hidden>
        <h2 id="detail-name"></h2>
        <p><span id="detail-status" class="badge"></span> version <span id="detail-version"></span></p>
        <p id="detail-description"></p>
        <pre id="detail-signature" class="signature"></pre>
        <p class="muted">Tags: <span id="detail-tags"></span> · Dependencies: <span id="detail-dependencies"></span></p>
        <h3>Code</h3>
        <pre id="detail-code" class="code"></pre>
        <h3>Quality gate</h3>
        <table><thead><tr><th>Step</th><th>Status</th><th>Tool</th><th>Result</th></tr></thead><tbody id="detail-gate"></tbody></table>
        <pre id="detail-rejection" class="rejection" hidden></pre>
        <h3>History</h3>
        <table><thead><tr><th>Version</th><th>Status</th><th>Saved</th><th>Rejected by</th></tr></thead><tbody id="detail-history"></tbody></table>
        <p><button type="button" id="delete-button" class="danger">Delete function</button></p>
      </article>
    </div>
  </section>

  <section id="panel-settings" class="panel" hidden>
    <form id="settings-form">
      <fieldset>
        <legend>Embeddings</legend>
        <label>Backend <select id="setting-embedder"><option value="auto">auto</option><option value="local">local (built-in)</option><option value="gguf">gguf (local embedding model)</option><option value="openai">openai (OpenAI-compatible server)</option><option value="gemini">gemini</option></select></label>
        <label>Model (gemini, openai) <input id="setting-embedding-model" placeholder="gemini-embedding-001 or nomic-embed-text"></label>
        <label>Server URL (openai) <input id="setting-embedding-url" placeholder="http://127.0.0.1:11434/v1"></label>
        <label>GGUF model path (gguf) <input id="setting-embedding-model-path" placeholder="/path/to/embeddinggemma.gguf"></label>
        <p class="muted" id="embedding-effective"></p>
      </fieldset>
      <fieldset>
        <legend>Critic</legend>
        <label>Backend <select id="setting-critic"><option value="auto">auto</option><option value="off">off</option><option value="gemini">gemini</option><option value="local">local GGUF</option></select></label>
        <label>Gemini model <input id="setting-critic-model" placeholder="gemma-3-27b-it"></label>
        <label>GGUF model path <input id="setting-critic-model-path" placeholder="/path/to/model.gguf"></label>
        <p class="muted" id="critic-effective"></p>
      </fieldset>
      <p class="muted" id="settings-overrides"></p>
      <button type="submit" id="settings-save">Save settings</button>
    </form>
    <form id="api-key-form">
      <fieldset>
        <legend>Gemini API key</legend>
        <p>Key: <span id="api-key-state"></span></p>
        <label>New key <input id="api-key-input" type="password" autocomplete="off"></label>
        <button type="submit" id="api-key-save">Save key</button>
        <button type="button" id="api-key-clear">Remove key</button>
        <p class="muted">Stored in a file only you can read (mode 0600); it is never shown again.</p>
      </fieldset>
    </form>
    <p><button type="button" id="reindex-button">Re-embed functions whose vector is missing or outdated for the current embedder</button></p>
  </section>
</main>
</body>
</html>
`;
