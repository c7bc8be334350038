/** Short meanings of the file-system error codes a CLI user meets. */
const FS_REASONS: Readonly<Record<string, string>> = {
  ENOENT: 'does not exist',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of the path is not a directory',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
  EBUSY: 'the file is busy',
  EIO: 'input/output error',
};

/** The OS error code of `err` (`ENOENT`, …) when it has one. */
export function errnoCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** `EISDIR: is a directory` for an fs error; `error` when `err` carries no OS code. */
export function fsReason(err: unknown): string {
  const code = errnoCode(err);
  if (!code) return 'error';
  const meaning = FS_REASONS[code];
  return meaning ? `${code}: ${meaning}` : code;
}
