/**
 * Status bar item: provider and model; a warning look (and the reason in the tooltip) when the mock judge
 * answers, the configuration is broken, or the workspace is not trusted. Click → the panel.
 */
import * as vscode from 'vscode';
import type { CoreHost } from './core-host';
import type { JevRuntime } from './runtime';

export class JevStatusBar implements vscode.Disposable {
  private readonly item: vscode.StatusBarItem;
  private subscription?: vscode.Disposable;

  constructor(core: CoreHost) {
    this.item = vscode.window.createStatusBarItem('jevPanel.status', vscode.StatusBarAlignment.Right, 100);
    this.item.name = 'Jev Control Panel';
    this.item.command = 'jevPanel.openPanel';
    this.item.text = '$(loading~spin) Jev';
    this.item.tooltip = 'Jev Control Panel is starting';
    this.item.show();
    core.onLoaded((runtime) => {
      this.subscription = runtime.onDidChangeStatus(() => this.update(runtime));
      this.update(runtime);
    });
  }

  /** Current text. */
  get text(): string {
    return this.item.text;
  }

  private update(runtime: JevRuntime): void {
    const status = runtime.status();
    const icon = status.health === 'error' ? '$(error)' : status.health === 'warning' ? '$(warning)' : '$(law)';
    this.item.text = `${icon} Jev: ${status.provider === 'mock' ? 'mock judge' : status.model}`;
    this.item.backgroundColor =
      status.health === 'error'
        ? new vscode.ThemeColor('statusBarItem.errorBackground')
        : status.health === 'warning'
          ? new vscode.ThemeColor('statusBarItem.warningBackground')
          : undefined;
    const lines = [
      `Jev Control Panel — ${status.provider} (${status.reason})`,
      `Model: ${status.model}${status.calibrated ? '' : ' (uncalibrated)'}`,
      `Spend: ${status.spend.used}${status.spend.cap !== undefined ? ` of ${status.spend.cap}` : ''} attempts`,
    ];
    if (status.message) lines.push('', status.message);
    this.item.tooltip = lines.join('\n');
  }

  dispose(): void {
    this.subscription?.dispose();
    this.item.dispose();
  }
}
