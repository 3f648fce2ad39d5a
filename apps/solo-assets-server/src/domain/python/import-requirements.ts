/**
 * Which third-party imports of a function no declared dependency provides
 * (`third_party_imports` of analyzer-source.ts against the PEP 508 list of dependencies.ts),
 * and the distribution to install for each.
 *
 * The link between an import name and a PyPI distribution is a heuristic, said as one: Python
 * records it only in an installed distribution's metadata, and the library has none installed
 * where it checks. An import is taken as provided by a declared dependency when
 *   - their names normalise equal (PEP 503: `sentence_transformers` and `sentence-transformers`),
 *   - the table below lists that dependency for it (`yaml` → PyYAML),
 *   - the dependency is the import's name with a common prefix or suffix (`python-`, `py`,
 *     `-python`, `-py`: python-slugify, pyserial), or starts with the name and a separator
 *     (`google-cloud-storage` for `google`, `ruamel.yaml` for `ruamel`).
 * These leanings only ever take an import as provided: a package the rules do not know is
 * reported, never hidden, and the report says what to declare (the table's first name, else the
 * import's own name). A declared package can also bring in another one it depends on (requests
 * installs urllib3), which the gate's tests would see and these rules do not.
 */

/** Well-known imports whose distribution has another name; the first is the usual one to install. */
export const IMPORT_DISTRIBUTIONS: Readonly<Record<string, readonly string[]>> = {
  Bio: ["biopython"],
  Crypto: ["pycryptodome", "pycrypto"],
  Cryptodome: ["pycryptodomex"],
  MySQLdb: ["mysqlclient"],
  OpenGL: ["PyOpenGL"],
  OpenSSL: ["pyOpenSSL"],
  PIL: ["Pillow"],
  RPi: ["RPi.GPIO"],
  Xlib: ["python-xlib"],
  argon2: ["argon2-cffi"],
  attr: ["attrs"],
  bluetooth: ["PyBluez"],
  bs4: ["beautifulsoup4"],
  bson: ["pymongo"],
  cairo: ["pycairo"],
  cv2: ["opencv-python", "opencv-python-headless", "opencv-contrib-python", "opencv-contrib-python-headless"],
  dateutil: ["python-dateutil"],
  dbus: ["dbus-python"],
  discord: ["discord.py"],
  dns: ["dnspython"],
  docx: ["python-docx"],
  dotenv: ["python-dotenv"],
  faiss: ["faiss-cpu", "faiss-gpu"],
  fitz: ["PyMuPDF"],
  gi: ["PyGObject"],
  git: ["GitPython"],
  github: ["PyGithub"],
  googleapiclient: ["google-api-python-client"],
  grpc: ["grpcio"],
  gridfs: ["pymongo"],
  haiku: ["dm-haiku"],
  jose: ["python-jose"],
  jwt: ["PyJWT"],
  kafka: ["kafka-python"],
  ldap: ["python-ldap"],
  magic: ["python-magic"],
  memcache: ["python-memcached"],
  mpl_toolkits: ["matplotlib"],
  multipart: ["python-multipart"],
  nacl: ["PyNaCl"],
  osgeo: ["GDAL"],
  pdfminer: ["pdfminer.six"],
  pkg_resources: ["setuptools"],
  psycopg2: ["psycopg2", "psycopg2-binary"],
  pylab: ["matplotlib"],
  pptx: ["python-pptx"],
  serial: ["pyserial"],
  skimage: ["scikit-image"],
  sklearn: ["scikit-learn"],
  skopt: ["scikit-optimize"],
  socketio: ["python-socketio"],
  speech_recognition: ["SpeechRecognition"],
  telegram: ["python-telegram-bot"],
  umap: ["umap-learn"],
  usb: ["pyusb"],
  websocket: ["websocket-client"],
  win32api: ["pywin32"],
  win32com: ["pywin32"],
  wx: ["wxPython"],
  yaml: ["PyYAML"],
  zmq: ["pyzmq"],
};

export interface ImportedPackage {
  /** The top-level package, as imported (`yaml` for `from yaml import safe_load`). */
  module: string;
  /** Its first line in the code. */
  line: number;
}

export interface UndeclaredImport extends ImportedPackage {
  /** The distribution to declare for it: the table's usual one, else the import's own name. */
  distribution: string;
}

/** PEP 503 normalisation. */
function canonical(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The name of a PEP 508 requirement (`pyyaml>=6` → `pyyaml`), normalised. */
function requirementName(requirement: string): string {
  return canonical(/^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(requirement)?.[1] ?? "");
}

/** A private top-level module (`_yaml`, `_pytest`) belongs to the package of its public name. */
function publicName(module: string): string {
  return module.replace(/^_+/, "") || module;
}

/** The distribution to install for an import. */
export function distributionFor(module: string): string {
  const name = publicName(module);
  return IMPORT_DISTRIBUTIONS[module]?.[0] ?? IMPORT_DISTRIBUTIONS[name]?.[0] ?? name;
}

function provides(requirement: string, module: string): boolean {
  const dist = requirementName(requirement);
  const name = canonical(publicName(module));
  if (dist === name) return true;
  if ((IMPORT_DISTRIBUTIONS[publicName(module)] ?? []).some((d) => canonical(d) === dist)) return true;
  const affixed = [`python-${name}`, `py${name}`, `${name}-python`, `${name}-py`];
  return affixed.includes(dist) || dist.startsWith(`${name}-`);
}

/** The imports that none of `requirements` provides, in the order given, with what to declare. */
export function undeclaredImports(imports: readonly ImportedPackage[], requirements: readonly string[]): UndeclaredImport[] {
  return imports
    .filter((i) => !requirements.some((r) => provides(r, i.module)))
    .map((i) => ({ module: i.module, line: i.line, distribution: distributionFor(i.module) }));
}

/** The save's warning for one undeclared import. */
export function undeclaredImportWarning(found: UndeclaredImport): string {
  return (
    `line ${found.line}: imports '${found.module}', which no declared dependency provides: ` +
    `declare it in dependencies, e.g. ${found.distribution} for ${found.module}; ` +
    `until then the tests run without it, and an export lists it in requirements.txt as not declared.`
  );
}

/**
 * The test step's failure, explained when it is the import of an undeclared package
 * (`ModuleNotFoundError: No module named 'yaml'`): the sandbox installs the declared
 * dependencies only. Undefined when the failure is something else.
 */
export function missingModuleReason(failure: string, undeclared: readonly UndeclaredImport[]): string | undefined {
  for (const match of failure.matchAll(/No module named '([A-Za-z0-9_.]+)'/g)) {
    const top = (match[1] ?? "").split(".")[0];
    const found = undeclared.find((u) => u.module === top);
    if (found) {
      return (
        `'${found.module}' (line ${found.line}) is not installed where the tests run: only the declared dependencies are. ` +
        `Declare it in dependencies, e.g. ${found.distribution} for ${found.module}, and save again.`
      );
    }
  }
  return undefined;
}
