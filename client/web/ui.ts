/** The page's fixed elements (index.html) and the small DOM writes everything else uses. */

const el = <T extends HTMLElement = HTMLElement>(id: string) => {
  const e = document.getElementById(id);
  if (!e) throw new Error(`index.html has no #${id}`);
  return e as T;
};

export interface Ui {
  status: HTMLElement;
  error: HTMLElement;
  errorText: HTMLElement;
  retry: HTMLButtonElement;
  dismiss: HTMLButtonElement;
  setup: HTMLElement;
  dealerUrl: HTMLElement;
  rpcUrl: HTMLElement;
  connect: HTMLButtonElement;
  wallet: HTMLElement;
  lobbies: HTMLElement;
  leaveLobby: HTMLButtonElement;
  restoreBox: HTMLElement;
  restore: HTMLInputElement;
  restorePass: HTMLInputElement;
  game: HTMLElement;
  exportState: HTMLButtonElement;
  exportPass: HTMLInputElement;
  exportPass2: HTMLInputElement;
  map: HTMLElement;
  gameInfo: HTMLElement;
  progress: HTMLElement;
  progressBar: HTMLProgressElement;
  progressText: HTMLElement;
  combat: HTMLElement;
  combatText: HTMLElement;
  answerCombat: HTMLButtonElement;
  spawn: HTMLButtonElement;
  attackMode: HTMLButtonElement;
  endTurn: HTMLButtonElement;
  pass: HTMLButtonElement;
  units: HTMLElement;
  log: HTMLElement;
}

export function findUi(): Ui {
  return {
    status: el('status'),
    error: el('error'),
    errorText: el('error-text'),
    retry: el('retry'),
    dismiss: el('dismiss'),
    setup: el('setup'),
    dealerUrl: el('dealer-url'),
    rpcUrl: el('rpc-url'),
    connect: el('connect'),
    wallet: el('wallet'),
    lobbies: el('lobbies'),
    leaveLobby: el('leave-lobby'),
    restoreBox: el('restore-box'),
    restore: el('restore'),
    restorePass: el('restore-pass'),
    game: el('game'),
    exportState: el('export'),
    exportPass: el('export-pass'),
    exportPass2: el('export-pass2'),
    map: el('map'),
    gameInfo: el('game-info'),
    progress: el('progress'),
    progressBar: el('progress-bar'),
    progressText: el('progress-text'),
    combat: el('combat'),
    combatText: el('combat-text'),
    answerCombat: el('answer-combat'),
    spawn: el('spawn'),
    attackMode: el('attack-mode'),
    endTurn: el('end-turn'),
    pass: el('pass'),
    units: el('units'),
    log: el('log'),
  };
}

/** Resolves on the next click of `button`, which is shown until then. */
export function nextClick(button: HTMLButtonElement): Promise<void> {
  button.hidden = false;
  button.disabled = false;
  return new Promise((resolve) =>
    button.addEventListener(
      'click',
      () => {
        button.hidden = true;
        resolve();
      },
      { once: true },
    ),
  );
}

/** Resolves with the text of the next file chosen in `input` (a file that cannot be read is skipped). */
export function nextFile(input: HTMLInputElement): Promise<string> {
  return new Promise((resolve) => {
    const onChange = async () => {
      const f = input.files?.[0];
      input.value = '';
      if (!f) return;
      input.removeEventListener('change', onChange);
      resolve(await f.text());
    };
    input.addEventListener('change', onChange);
  });
}

export function appendLog(ui: Ui, line: string, kind = 'info'): void {
  const li = document.createElement('li');
  li.textContent = line;
  li.dataset.kind = kind;
  ui.log.append(li);
  li.scrollIntoView({ block: 'nearest' });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when `signal` aborts (never, if it does not). */
export const aborted = (signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
