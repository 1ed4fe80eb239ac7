import { useEffect, useState } from 'react';

/**
 * An object URL for bytes held on this device (a photo just picked, or stored until it is uploaded), for an
 * <img>; revoked when the bytes change or the screen goes, so a tablet session does not pile up blobs. Null
 * without bytes.
 */
export function useObjectUrl(file: { bytes: ArrayBuffer; mimetype: string } | null | undefined): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return undefined;
    }
    const objectUrl = URL.createObjectURL(new Blob([file.bytes], { type: file.mimetype }));
    setUrl(objectUrl);
    return () => URL.revokeObjectURL(objectUrl);
  }, [file]);
  return url;
}
