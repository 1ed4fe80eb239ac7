import { describe, expect, it } from 'vitest';
import { shareNotificationSchema } from '../../src/shared/api/share';
import { isShareEmail, SHARE_EMAIL_ERROR, SHARE_EMAIL_MAX } from '../../src/shared/domain/share';
import { buildShareMail, escapeHtml, notificationLink } from '../../src/server/mail/share-mail';

describe('share e-mail rule (part 1 §5)', () => {
  it('accepts one address with @ and a dot, surrounding spaces ignored', () => {
    for (const value of ['meister@werk.example', ' a.b+wartung@sub.werk.de ', 'x@y.io']) expect(isShareEmail(value), value).toBe(true);
  });

  it('refuses empty input, an address without @ or without a dot, and anything that is not one address', () => {
    for (const value of ['', '   ', 'meister', 'meister@werk', 'meister.werk.example', '@werk.example', 'meister@', 'a@b.example, c@d.example', 'a@b.example;c@d.example', 'a b@werk.example', 'a@b.example\r\nBcc: x@y.example', '<a@b.example>']) {
      expect(isShareEmail(value), JSON.stringify(value)).toBe(false);
    }
    expect(isShareEmail(`${'a'.repeat(SHARE_EMAIL_MAX)}@werk.example`)).toBe(false);
  });

  it('is the payload rule too, with the spec text as the message', () => {
    const nodeid = '0190a4d2-5f3e-7c1a-8b2d-3e4f5a6b7c8d';
    expect(shareNotificationSchema.parse({ nodeid, receiver: ' meister@werk.example ', name: 'Spindel' })).toEqual({ nodeid, receiver: 'meister@werk.example', name: 'Spindel', lang: 'de' });
    const refused = shareNotificationSchema.safeParse({ nodeid, receiver: 'meister' });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe(SHARE_EMAIL_ERROR);
    expect(shareNotificationSchema.safeParse({ nodeid }).error?.issues[0]?.message).toBe(SHARE_EMAIL_ERROR);
  });
});

describe('share mail text', () => {
  const input = {
    lang: 'de' as const,
    publicUrl: 'https://wartung.example',
    notification: { nodeid: '0190a4d2-5f3e-7c1a-8b2d-3e4f5a6b7c8d', type: 12, status: 0, title: 'Lüfter "A" <defekt>\r\nBcc: x@y', description: null, errorcode: null, created: new Date(Date.UTC(2026, 10, 3, 7, 5)) },
    machine: { name: 'Presse 2', equipmentid: null },
    sharer: { givenname: 'Eva', surname: 'Berg', email: 'eva@werk.example' },
    photos: [],
  };

  it('says what a recipient needs, each value escaped in the HTML, the subject on one line', () => {
    const mail = buildShareMail(input);
    expect(mail.subject).toBe('Meldung: Lüfter "A" <defekt> Bcc: x@y');
    expect(mail.text).toContain('Meldungsart: Störung ohne Stillstand');
    expect(mail.text).toContain('Status: Offen');
    expect(mail.text).toContain('Erstellt: 03.11.2026 07:05 UTC');
    expect(mail.text).toContain('Fehlercode: ---');
    expect(mail.text).toContain(`Meldung öffnen: ${notificationLink(input.publicUrl, input.notification.nodeid)}`);
    expect(mail.html).toContain('Lüfter &quot;A&quot; &lt;defekt&gt;');
    expect(mail.html).not.toMatch(/<defekt>/);
    expect(escapeHtml(`<a href='x'>&</a>`)).toBe('&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;');
  });

  it('names an unknown type as such, in English too', () => {
    const mail = buildShareMail({ ...input, lang: 'en', notification: { ...input.notification, type: 99 } });
    expect(mail.subject.startsWith('Notification: ')).toBe(true);
    expect(mail.text).toContain('Type: Unknown type');
    expect(mail.text).toContain('Eva Berg shared a notification');
  });
});
