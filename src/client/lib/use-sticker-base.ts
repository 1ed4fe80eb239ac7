/** The base URL stickers encode: the server's PUBLIC_URL from the session, else this app's origin. */
import { useSessionStore } from '../stores/session-store';
import { stickerBase } from './sticker-url';

export function useStickerBaseUrl(): string {
  const publicurl = useSessionStore((state) => state.session?.baseinfo.publicurl);
  return stickerBase(publicurl, window.location.origin);
}

/** Every base a sticker of this installation may carry: the public URL and the origin the tablet uses. */
export function useOwnStickerBases(): string[] {
  const publicurl = useSessionStore((state) => state.session?.baseinfo.publicurl);
  return [...new Set([publicurl, window.location.origin].filter((base): base is string => Boolean(base)))];
}
