/* CatDoc dashboard page: draws a category's graph with cytoscape, lists validation results,
 * traces paths, shows coverage per functor and the suspect links, and searches objects. Plain
 * browser JavaScript, no build step. Every text from the project is inserted with textContent
 * (never as HTML). The API is this server's /api/*; the exports are under /export/. */
/* global cytoscape, document, window */
"use strict";

(function main() {
  const ALL = "";
  const PALETTE = ["#2f6fde", "#2b8a3e", "#c2255c", "#e67700", "#5f3dc4", "#0c8599", "#a61e4d", "#5c940d"];

  const state = {
    cy: null,
    categories: [],
    validation: null,
    lastTrace: null,
    activePath: 0,
    ready: false,
  };

  const $ = (id) => document.getElementById(id);

  /** Creates an element; `text` goes in as text, children are elements or strings (as text). */
  function el(tag, options, ...children) {
    const node = document.createElement(tag);
    const opts = options || {};
    if (opts.className) node.className = opts.className;
    if (opts.title) node.title = opts.title;
    if (opts.text !== undefined) node.textContent = String(opts.text);
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === "string" ? document.createTextNode(child) : child);
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function showStatus(message) {
    const status = $("status");
    status.textContent = message;
    status.hidden = message === "";
  }

  async function api(path, query) {
    const qs = query ? `?${new URLSearchParams(query).toString()}` : "";
    const response = await fetch(`/api/${path}${qs}`, { headers: { Accept: "application/json" } });
    let body = null;
    try {
      body = await response.json();
    } catch {
      body = null;
    }
    if (!response.ok) {
      const message = body && typeof body.error === "string" ? body.error : `${response.status} ${response.statusText}`;
      const error = new Error(message);
      error.code = body && body.code;
      throw error;
    }
    return body;
  }

  const cyId = {
    object: (id) => `o:${id}`,
    morphism: (id) => `m:${id}`,
    functor: (edgeId) => `f:${edgeId}`,
    category: (id) => `c:${id}`,
  };

  function colorOf(categoryId) {
    const index = state.categories.findIndex((c) => c.id === categoryId);
    return PALETTE[(index < 0 ? 0 : index) % PALETTE.length];
  }

  // ---- graph ------------------------------------------------------------------------------

  const GRAPH_STYLE = [
    {
      selector: "node.object",
      style: {
        shape: "round-rectangle",
        "background-color": "#ffffff",
        "border-width": 2,
        "border-color": "data(color)",
        label: "data(label)",
        "text-valign": "center",
        "text-halign": "center",
        "text-wrap": "wrap",
        "text-max-width": "140px",
        "font-size": 12,
        color: "#1d2430",
        width: 160,
        height: 46,
        padding: "4px",
      },
    },
    {
      selector: "node.category",
      style: {
        shape: "round-rectangle",
        "background-color": "data(color)",
        "background-opacity": 0.06,
        "border-width": 1,
        "border-color": "data(color)",
        "border-opacity": 0.5,
        label: "data(label)",
        "text-valign": "top",
        "text-halign": "center",
        "font-size": 13,
        "font-weight": "bold",
        color: "data(color)",
        padding: "18px",
      },
    },
    {
      selector: "edge",
      style: {
        width: 1.6,
        "curve-style": "bezier",
        "target-arrow-shape": "triangle",
        "line-color": "#8a94a6",
        "target-arrow-color": "#8a94a6",
        label: "data(label)",
        "font-size": 10,
        color: "#4a5568",
        "text-background-color": "#fbfcfd",
        "text-background-opacity": 0.9,
        "text-background-padding": "2px",
        "text-rotation": "autorotate",
      },
    },
    { selector: "edge.identity", style: { "line-style": "dotted", "loop-direction": "-45deg", "loop-sweep": "-30deg" } },
    {
      selector: "edge.functor",
      style: {
        "line-style": "dashed",
        "line-color": "#7048e8",
        "target-arrow-color": "#7048e8",
        width: 1.2,
        color: "#5f3dc4",
        "font-size": 9,
        "text-background-opacity": 0,
      },
    },
    { selector: "node.has-error", style: { "border-color": "#c92a2a", "border-width": 4 } },
    { selector: ".faded", style: { opacity: 0.22 } },
    {
      selector: "edge.path",
      style: { "line-color": "#f08c00", "target-arrow-color": "#f08c00", width: 4.5, opacity: 1, "z-index": 10 },
    },
    { selector: "node.path", style: { "border-color": "#f08c00", "border-width": 4, "background-color": "#fff4e6", opacity: 1 } },
    { selector: "node.focus", style: { "border-color": "#f08c00", "border-width": 4, opacity: 1 } },
    { selector: "edge.focus", style: { "line-color": "#f08c00", "target-arrow-color": "#f08c00", width: 3.5, opacity: 1 } },
    { selector: "node:selected", style: { "overlay-color": "#2f6fde", "overlay-opacity": 0.15 } },
  ];

  /** Turns /api/graph data into cytoscape elements; skips what cytoscape cannot draw. */
  function toElements(graph, options) {
    const nodes = [];
    const edges = [];
    const seen = new Set();
    const skipped = { duplicates: 0, dangling: 0 };
    const compound = options.compound;
    if (compound) {
      for (const category of graph.categories) {
        const id = cyId.category(category.id);
        if (seen.has(id)) continue;
        seen.add(id);
        nodes.push({ group: "nodes", classes: "category", data: { id, label: category.name, color: colorOf(category.id) } });
      }
    }
    for (const node of graph.nodes) {
      const id = cyId.object(node.id);
      if (seen.has(id)) {
        skipped.duplicates += 1;
        continue;
      }
      seen.add(id);
      const data = { id, objectId: node.id, label: node.label, categoryId: node.categoryId, color: colorOf(node.categoryId) };
      if (compound) data.parent = cyId.category(node.categoryId);
      nodes.push({ group: "nodes", classes: "object", data });
    }
    for (const edge of graph.edges) {
      if (edge.type === "morphism" && edge.isIdentity && !options.identities) continue;
      const id = edge.type === "functor" ? cyId.functor(edge.id) : cyId.morphism(edge.id);
      const source = cyId.object(edge.source);
      const target = cyId.object(edge.target);
      if (!seen.has(source) || !seen.has(target)) {
        skipped.dangling += 1;
        continue;
      }
      if (seen.has(id)) {
        skipped.duplicates += 1;
        continue;
      }
      seen.add(id);
      const classes = [edge.type, edge.isIdentity ? "identity" : ""].filter(Boolean).join(" ");
      edges.push({ group: "edges", classes, data: { id, edgeId: edge.id, source, target, label: edge.label, kind: edge.type } });
    }
    return { elements: nodes.concat(edges), skipped };
  }

  // ---- layout -----------------------------------------------------------------------------
  // Deterministic and readable: categories side by side, left to right in the order functors
  // go (sources first); inside each, documents top to bottom by the length of the longest
  // morphism path that reaches them (cycles and identities ignored).

  /** Distances between layers (along morphisms) and between documents of one layer, per arrangement. */
  const LAYOUT = {
    columns: { layer: 125, sibling: 215 },
    rows: { layer: 270, sibling: 85 },
    gap: 60,
  };

  /** Category ids ordered so that a functor's source comes before its target (file order breaks ties). */
  function categoryOrder(graph) {
    const ids = graph.categories.map((c) => c.id);
    const incoming = new Map(ids.map((id) => [id, new Set()]));
    const homeOf = new Map(graph.nodes.map((n) => [n.id, n.categoryId]));
    for (const edge of graph.edges) {
      if (edge.type !== "functor") continue;
      const from = homeOf.get(edge.source);
      const to = homeOf.get(edge.target);
      if (from !== undefined && to !== undefined && from !== to && incoming.has(to)) incoming.get(to).add(from);
    }
    const order = [];
    const placed = new Set();
    while (order.length < ids.length) {
      const next =
        ids.find((id) => !placed.has(id) && [...incoming.get(id)].every((from) => placed.has(from))) || ids.find((id) => !placed.has(id)); // a cycle of functors: take the first remaining
      placed.add(next);
      order.push(next);
    }
    return order;
  }

  /** Object id → layer inside its category: longest path from a document nothing points to. */
  function layersOf(nodeIds, edges) {
    const outgoing = new Map(nodeIds.map((id) => [id, []]));
    const indegree = new Map(nodeIds.map((id) => [id, 0]));
    for (const edge of edges) {
      if (edge.source === edge.target || !outgoing.has(edge.source) || !outgoing.has(edge.target)) continue;
      outgoing.get(edge.source).push(edge.target);
      indegree.set(edge.target, indegree.get(edge.target) + 1);
    }
    const layer = new Map(nodeIds.map((id) => [id, 0]));
    const queue = nodeIds.filter((id) => indegree.get(id) === 0);
    const seen = new Set();
    while (queue.length > 0) {
      const id = queue.shift();
      seen.add(id);
      for (const next of outgoing.get(id)) {
        layer.set(next, Math.max(layer.get(next), layer.get(id) + 1));
        indegree.set(next, indegree.get(next) - 1);
        if (indegree.get(next) === 0) queue.push(next);
      }
    }
    return layer; // nodes on cycles keep the layer their acyclic predecessors gave them
  }

  /** Each category's documents by layer: [{ categoryId, rows: [[objectId, …] per layer], width }]. */
  function categoryBlocks(graph) {
    const seen = new Set();
    return categoryOrder(graph).map((categoryId) => {
      const ids = [];
      for (const node of graph.nodes) {
        if (node.categoryId === categoryId && !seen.has(node.id)) {
          seen.add(node.id);
          ids.push(node.id);
        }
      }
      const layers = layersOf(
        ids,
        graph.edges.filter((e) => e.type === "morphism" && e.categoryId === categoryId),
      );
      const rows = [];
      for (const id of ids) {
        const at = layers.get(id);
        (rows[at] = rows[at] || []).push(id);
      }
      const filled = rows.filter(Boolean);
      return { categoryId, rows: filled, width: Math.max(1, ...filled.map((row) => row.length)) };
    });
  }

  /**
   * cytoscape id → position, for the preset layout. "columns": categories left to right, layers
   * top to bottom; "rows": categories top to bottom, layers left to right. The caller picks the
   * arrangement that fits the graph's box best.
   */
  function layeredPositions(blocks, arrangement) {
    const positions = {};
    const { layer: layerStep, sibling } = LAYOUT[arrangement];
    let offset = 0;
    for (const block of blocks) {
      block.rows.forEach((row, layer) => {
        row.forEach((id, i) => {
          const across = offset + (i + (block.width - row.length) / 2) * sibling;
          positions[cyId.object(id)] =
            arrangement === "columns" ? { x: across, y: layer * layerStep } : { x: layer * layerStep, y: across };
        });
      });
      offset += block.width * sibling + LAYOUT.gap;
    }
    return positions;
  }

  /** The arrangement whose bounding box fits the container at the larger zoom. */
  function bestPositions(graph, container) {
    const blocks = categoryBlocks(graph);
    let best = null;
    for (const arrangement of ["columns", "rows"]) {
      const positions = layeredPositions(blocks, arrangement);
      const points = Object.values(positions);
      if (points.length === 0) return positions;
      // Plus one document's box (160 × 46) and the fit padding on each side.
      const width = Math.max(...points.map((p) => p.x)) - Math.min(...points.map((p) => p.x)) + 160 + 80;
      const height = Math.max(...points.map((p) => p.y)) - Math.min(...points.map((p) => p.y)) + 46 + 80;
      const zoom = Math.min(container.clientWidth / width, container.clientHeight / height);
      if (best === null || zoom > best.zoom) best = { zoom, positions };
    }
    return best.positions;
  }

  async function drawGraph() {
    const categoryId = $("category-select").value;
    const all = categoryId === ALL;
    const query = {};
    if (!all) query.category = categoryId;
    if (all && $("show-functors").checked) query.functors = "true";
    const graph = await api("graph", query);
    const { elements, skipped } = toElements(graph, { compound: all, identities: $("show-identities").checked });
    if (state.cy) state.cy.destroy();
    state.cy = cytoscape({
      container: $("graph"),
      elements,
      style: GRAPH_STYLE,
      layout: { name: "preset", positions: bestPositions(graph, $("graph")), fit: true, padding: 40, animate: false },
      wheelSensitivity: 0.3,
      minZoom: 0.2,
      maxZoom: 3,
    });
    if (state.cy.zoom() > 1.4) {
      state.cy.zoom(1.4);
      state.cy.center();
    }
    state.cy.on("tap", "node.object", (event) => showDetails(event.target.data("objectId")));
    markIssues();
    const objectCount = state.cy.nodes(".object").length;
    const edgeCount = state.cy.edges().length;
    const notes = [];
    if (skipped.duplicates > 0) notes.push(`${skipped.duplicates} duplicate id(s) not drawn`);
    if (skipped.dangling > 0) notes.push(`${skipped.dangling} arrow(s) with an undefined endpoint not drawn`);
    $("graph-stats").textContent =
      `${objectCount} document(s), ${edgeCount} arrow(s) drawn${notes.length ? ` — ${notes.join("; ")}` : ""}.`;
    fillObjectOptions(graph.nodes);
    if (state.lastTrace) highlightPath(state.lastTrace.paths[state.activePath] || null);
  }

  function fillObjectOptions(nodes) {
    const list = $("object-options");
    clear(list);
    for (const node of nodes) {
      const option = document.createElement("option");
      option.value = node.id;
      option.label = node.label;
      list.append(option);
    }
  }

  // ---- details ----------------------------------------------------------------------------

  async function showDetails(objectId) {
    const box = $("details");
    try {
      const data = await api(`objects/${encodeURIComponent(objectId)}`);
      clear(box);
      box.classList.remove("muted");
      const dl = el("dl");
      const row = (term, value) => dl.append(el("dt", { text: term }), el("dd", { text: value }));
      row("Title", data.object.title);
      row("Id", data.object.id);
      row("Domain", data.object.domain);
      row("Category", data.object.categoryId);
      row("Identity", data.identity || "(none)");
      row("Document", data.document ? data.document.path || "inline content" : "(none)");
      box.append(dl);
      const arrows = (title, list, key) => {
        const items = list.filter((m) => !m.isIdentity);
        if (items.length === 0) return;
        box.append(el("p", { className: "label", text: title }));
        const ul = el("ul");
        for (const m of items) ul.append(el("li", { text: `${m.name} (${m.id}) ${key === "target" ? "→" : "←"} ${m[key]}` }));
        box.append(ul);
      };
      arrows("Outgoing", data.outgoingMorphisms, "target");
      arrows("Incoming", data.incomingMorphisms, "source");
    } catch (error) {
      showStatus(error.message);
    }
  }

  // ---- validation -------------------------------------------------------------------------

  function issueIds(issue) {
    const parts = [];
    const add = (label, value) => {
      if (value !== undefined) parts.push(`${label} ${value}`);
    };
    add("category", issue.categoryId);
    add("functor", issue.functorId);
    add("nt", issue.naturalTransformationId);
    add("object", issue.objectId);
    add("morphism", issue.morphismId);
    return parts.join(" · ");
  }

  async function loadValidation() {
    const report = await api("validate");
    state.validation = report;
    const summary = $("validation-summary");
    clear(summary);
    summary.className = `validation-summary ${report.isValid ? "valid" : "invalid"}`;
    summary.append(
      report.isValid ? "Valid" : "Invalid",
      el("span", {
        className: "counts",
        text:
          `${report.summary.totalErrors} error(s), ${report.summary.totalWarnings} warning(s) — ` +
          `${report.summary.categoriesChecked} categories, ${report.summary.functorsChecked} functors, ` +
          `${report.summary.naturalTransformationsChecked} natural transformations checked`,
      }),
    );
    const list = $("validation-list");
    clear(list);
    const items = report.errors.concat(report.warnings);
    if (items.length === 0) list.append(el("li", { className: "muted", text: "No errors or warnings." }));
    for (const issue of items) {
      const li = el(
        "li",
        { className: `issue ${issue.severity}` },
        el("span", { className: `badge ${issue.severity}`, text: issue.severity }),
        el("code", { text: issue.code }),
        el("span", { className: "issue-message", text: issue.message }),
        el("span", { className: "issue-ids mono", text: issueIds(issue) }),
      );
      li.dataset.code = issue.code;
      li.addEventListener("click", () => focusIssue(issue));
      list.append(li);
    }
    markIssues();
  }

  function markIssues() {
    if (!state.cy || !state.validation) return;
    state.cy.nodes().removeClass("has-error");
    for (const issue of state.validation.errors) {
      const ids = (issue.objectIds || []).concat(issue.objectId ? [issue.objectId] : []);
      for (const id of ids) state.cy.getElementById(cyId.object(id)).addClass("has-error");
    }
  }

  function focusIssue(issue) {
    if (!state.cy) return;
    state.cy.elements().removeClass("focus faded path");
    const objects = (issue.objectIds || []).concat(issue.objectId ? [issue.objectId] : []);
    const morphisms = (issue.morphismIds || []).concat(issue.morphismId ? [issue.morphismId] : []);
    let focused = state.cy.collection();
    for (const id of objects) focused = focused.union(state.cy.getElementById(cyId.object(id)));
    for (const id of morphisms) focused = focused.union(state.cy.getElementById(cyId.morphism(id)));
    if (focused.length === 0) return;
    state.cy.elements().not(focused).not(".category").addClass("faded");
    focused.addClass("focus");
  }

  // ---- trace ------------------------------------------------------------------------------

  function stepElementId(step) {
    return step.kind === "functor" ? cyId.functor(`${step.id}:${step.source}`) : cyId.morphism(step.id);
  }

  function highlightPath(path) {
    const cy = state.cy;
    if (!cy) return 0;
    cy.elements().removeClass("path faded focus");
    if (!path) return 0;
    let marked = cy.collection();
    for (const step of path) {
      marked = marked.union(cy.getElementById(cyId.object(step.source)));
      marked = marked.union(cy.getElementById(cyId.object(step.target)));
      marked = marked.union(cy.getElementById(stepElementId(step)));
    }
    if (state.lastTrace && path.length === 0) marked = marked.union(cy.getElementById(cyId.object(state.lastTrace.source)));
    cy.elements().not(marked).not(".category").addClass("faded");
    marked.addClass("path");
    return marked.length;
  }

  /** Whether every step of a path is drawn in the current view. */
  function pathDrawn(path) {
    return path.every((step) => state.cy && state.cy.getElementById(stepElementId(step)).length > 0);
  }

  function stepLine(step) {
    const li = el("li");
    const kind = step.kind === "morphism" ? "morphism" : step.kind === "functor" ? "functor" : "component";
    li.append(el("span", { className: `kind ${step.kind}`, text: kind }));
    li.append(`${step.source} —${step.name} (${step.id})→ ${step.target}`);
    return li;
  }

  function renderTrace(result) {
    const box = $("trace-result");
    clear(box);
    if (!result.found) {
      box.append(el("p", { text: `No path from ${result.source} to ${result.target ?? result.targetCategory}.` }));
      return;
    }
    const where = result.crossCategory ? `from ${result.sourceCategory} to ${result.targetCategory}` : `in ${result.categoryId}`;
    const shortest = result.shortestPathLength;
    box.append(el("p", { text: `${result.paths.length} path(s) ${where}; shortest: ${shortest} step(s).` }));
    result.paths.forEach((path, index) => {
      const title = el("p", {
        className: `path-choice${index === state.activePath ? " active" : ""}`,
        text: result.paths.length > 1 ? `Path ${index + 1} (${path.length} step(s))` : "Path",
      });
      title.addEventListener("click", () => {
        state.activePath = index;
        renderTrace(result);
        highlightPath(path);
      });
      const ol = el("ol", { className: "trace-steps" });
      if (path.length === 0) ol.append(el("li", { text: `${result.source} is the target itself.` }));
      for (const step of path) ol.append(stepLine(step));
      box.append(title, ol);
    });
    if (result.truncated) box.append(el("p", { className: "muted", text: "More paths exist than were listed." }));
  }

  async function runTrace(event) {
    event.preventDefault();
    const source = $("trace-source").value.trim();
    const target = $("trace-target").value.trim();
    if (source === "" || target === "") return;
    showStatus("");
    document.body.dataset.trace = "running";
    try {
      const query = { source, target };
      if ($("trace-all").checked) query.all = "true";
      const result = await api("trace", query);
      state.lastTrace = result;
      state.activePath = 0;
      renderTrace(result);
      const path = result.paths[0] || null;
      if (path && !pathDrawn(path) && $("category-select").value !== ALL) {
        // The path leaves the category on screen: show every category to draw it.
        $("category-select").value = ALL;
        $("show-functors").checked = true;
        await drawGraph();
      } else {
        highlightPath(path);
      }
    } catch (error) {
      state.lastTrace = null;
      clear($("trace-result"));
      $("trace-result").append(el("p", { className: "error", text: error.message }));
    } finally {
      document.body.dataset.trace = "done";
    }
  }

  function clearTrace() {
    state.lastTrace = null;
    clear($("trace-result"));
    highlightPath(null);
  }

  // ---- coverage, suspect links, search ---------------------------------------------------

  const STATUS_TEXT = { covered: "covered", "trivially-covered": "trivially covered", uncovered: "uncovered" };

  async function loadCoverage() {
    const report = await api("coverage");
    const box = $("coverage");
    clear(box);
    if (report.functors.length === 0) {
      box.append(el("p", { className: "muted", text: "No functor." }));
      return;
    }
    const table = el("table", { className: "coverage-table" });
    table.append(
      el(
        "tr",
        {},
        el("th", { text: "Functor" }),
        el("th", { text: "Covered" }),
        el("th", { text: "Trivially" }),
        el("th", { text: "Uncovered" }),
      ),
    );
    for (const f of report.functors) {
      const tr = el(
        "tr",
        { title: `${f.name}: ${f.sourceCategory} → ${f.targetCategory}` },
        el("td", {}, el("code", { text: f.functorId })),
        el("td", { className: "num", text: `${f.percent.covered} %` }),
        el("td", { className: "num", text: String(f.triviallyCovered) }),
        el("td", { className: "num", text: String(f.uncovered) }),
      );
      tr.dataset.functor = f.functorId;
      table.append(tr);
    }
    box.append(table);
    for (const f of report.functors) {
      const notCovered = f.detail.filter((o) => o.status !== "covered");
      if (notCovered.length === 0) continue;
      const ul = el("ul", { className: "coverage-gaps" });
      for (const o of notCovered) {
        const li = el(
          "li",
          {},
          el("span", { className: `badge ${o.status}`, text: STATUS_TEXT[o.status] }),
          " ",
          el("code", { text: o.id }),
        );
        li.addEventListener("click", () => focusObject(o.id));
        ul.append(li);
      }
      box.append(el("p", { className: "label", text: `${f.functorId}: not covered` }), ul);
    }
  }

  async function loadSuspects() {
    const view = await api("suspect-links");
    $("suspect-summary").textContent =
      `${view.suspect.length} suspect of ${view.links} links (${view.reviewed} reviewed, ${view.unreviewed} never reviewed)`;
    const list = $("suspect-list");
    clear(list);
    for (const s of view.suspect) {
      const why = s.via ? `through ${s.via.linkId} (${s.via.rule})` : `changed: ${s.changed.join(", ")}`;
      const li = el(
        "li",
        { className: "suspect" },
        el("code", { text: s.id }),
        el("span", { className: "mono", text: ` ${s.source} ${s.kind === "mapping" ? "↦" : "→"} ${s.target}` }),
        el("span", { className: "muted", text: ` — ${why}` }),
      );
      li.addEventListener("click", () => focusObject(s.source));
      list.append(li);
    }
  }

  function focusObject(objectId) {
    showDetails(objectId);
    if (!state.cy) return;
    const node = state.cy.getElementById(cyId.object(objectId));
    if (node.nonempty()) {
      state.cy.elements().unselect();
      node.select();
      state.cy.animate({ center: { eles: node } }, { duration: 200 });
    }
  }

  async function runSearch(event) {
    event.preventDefault();
    const query = $("search-query").value.trim();
    const list = $("search-results");
    clear(list);
    if (query === "") return;
    try {
      const result = await api("search", { q: query, limit: "20" });
      if (result.hits.length === 0) list.append(el("li", { className: "muted", text: "No match." }));
      for (const hit of result.hits) {
        const li = el(
          "li",
          {},
          el("span", { text: hit.title }),
          " ",
          el("code", { className: "muted", text: `${hit.id} · ${hit.categoryId}` }),
        );
        li.addEventListener("click", () => focusObject(hit.id));
        list.append(li);
      }
    } catch (error) {
      showStatus(error.message);
    }
  }

  // ---- start ------------------------------------------------------------------------------

  async function loadProject() {
    const health = await api("health");
    $("project-name").textContent = health.project.name || health.project.root;
    $("project-version").textContent = health.project.version ? health.project.version.slice(0, 12) : "";
    const { categories } = await api("categories");
    state.categories = categories;
    const select = $("category-select");
    const previous = select.value;
    clear(select);
    select.append(new window.Option("All categories", ALL));
    for (const category of categories) {
      select.append(new window.Option(`${category.name} (${category.id}) — ${category.objectCount} objects`, category.id));
    }
    if (categories.some((c) => c.id === previous)) select.value = previous;
  }

  async function refresh() {
    document.body.dataset.ready = "false";
    showStatus("");
    try {
      await loadProject();
      await Promise.all([drawGraph(), loadValidation(), loadCoverage(), loadSuspects()]);
    } catch (error) {
      showStatus(error.message);
    } finally {
      state.ready = true;
      document.body.dataset.ready = "true";
    }
  }

  const redraw = () => drawGraph().catch((error) => showStatus(error.message));
  $("category-select").addEventListener("change", redraw);
  $("show-identities").addEventListener("change", redraw);
  $("show-functors").addEventListener("change", redraw);
  $("trace-form").addEventListener("submit", runTrace);
  $("trace-clear").addEventListener("click", clearTrace);
  $("reload").addEventListener("click", refresh);
  $("search-form").addEventListener("submit", runSearch);

  /** For people poking around in the console, and for the browser test. */
  window.catdocDashboard = {
    get cy() {
      return state.cy;
    },
    get ready() {
      return state.ready;
    },
    get lastTrace() {
      return state.lastTrace;
    },
    objectNodeCount: () => (state.cy ? state.cy.nodes(".object").length : 0),
    highlightedIds: () => (state.cy ? state.cy.elements(".path").map((e) => e.id()) : []),
  };

  refresh();
})();
