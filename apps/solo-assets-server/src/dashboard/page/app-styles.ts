/** The dashboard's styles. */
export const APP_STYLES = `
:root { font-family: system-ui, sans-serif; color: #1d2330; background: #f6f7f9; }
header { display: flex; gap: 1.5rem; align-items: center; padding: 0.6rem 1.2rem; background: #1d2330; color: #fff; }
header h1 { font-size: 1.1rem; margin: 0; }
nav { display: flex; gap: 0.3rem; }
.tab { background: transparent; color: #cfd6e4; border: 1px solid transparent; padding: 0.3rem 0.8rem; border-radius: 4px; cursor: pointer; }
.tab[aria-selected="true"] { border-color: #cfd6e4; color: #fff; }
main { padding: 1rem 1.2rem; }
.muted { color: #6b7385; font-size: 0.9rem; }
header .muted { color: #aab3c5; margin-left: auto; }
#message:empty { display: none; }
#message { padding: 0.5rem 0.8rem; border-radius: 4px; background: #e8f1ff; }
#message.error { background: #ffe9e9; }
table { border-collapse: collapse; width: 100%; margin-bottom: 1rem; background: #fff; }
th, td { text-align: left; padding: 0.3rem 0.5rem; border-bottom: 1px solid #e3e6ec; vertical-align: top; }
tbody tr.clickable { cursor: pointer; }
tbody tr.clickable:hover, tbody tr.selected { background: #eef3ff; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
.facts dt { font-weight: 600; }
.facts dd { margin: 0; word-break: break-all; }
.row { display: flex; gap: 0.5rem; align-items: center; margin-bottom: 0.8rem; }
.split { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.3fr); gap: 1rem; }
article { background: #fff; padding: 0.8rem 1rem; border: 1px solid #e3e6ec; border-radius: 6px; }
pre { background: #11151d; color: #e8ecf4; padding: 0.7rem; border-radius: 4px; overflow: auto; white-space: pre; }
pre.signature { background: #eef1f6; color: #1d2330; }
pre.rejection { background: #fff1f1; color: #8a1c1c; white-space: pre-wrap; }
.badge { padding: 0.1rem 0.5rem; border-radius: 999px; font-size: 0.85rem; background: #e3e6ec; }
.badge.active { background: #d8f5e1; color: #11612e; }
.badge.broken { background: #ffe0e0; color: #8a1c1c; }
.badge.unverified { background: #fff3cd; color: #7a5b00; }
fieldset { border: 1px solid #d6dae3; border-radius: 6px; margin-bottom: 1rem; background: #fff; }
label { display: block; margin: 0.4rem 0; }
input, select { padding: 0.25rem 0.4rem; }
input:not([type]), input[type="password"], input[type="search"] { min-width: 22rem; }
button.danger { background: #b3261e; color: #fff; border: 0; padding: 0.4rem 0.9rem; border-radius: 4px; cursor: pointer; }
`;
