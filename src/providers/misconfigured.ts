import { configError } from '../judgment/errors';
import type { JudgmentProvider } from '../judgment/provider';

/** A provider that cannot work as configured: every request fails with CONFIG_ERROR `message`. */
export class MisconfiguredProvider implements JudgmentProvider {
  readonly calibrated = false;

  constructor(
    readonly id: string,
    private readonly message: string,
  ) {}

  async systemOne(): Promise<never> {
    throw configError(this.message);
  }
}
