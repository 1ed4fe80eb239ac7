/**
 * "Änderungsverlauf" of a notification: what writes overwrote, from the server's record history (docs/sync.md §
 * Conflicts: last write wins field by field, and the overwritten value is kept). So "nothing is lost" can be checked
 * by a person: when two devices changed the same field, the earlier value is here with who wrote what and when.
 * The history is not mirrored (it is the server's record of what happened), so it is read on demand and needs a
 * connection.
 */
import { Box, Button, Heading, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { notificationChangesSchema, type NotificationChange } from '../../../shared/api/notifications';
import { api } from '../../lib/api';
import { formatDate, formatDateTime } from '../../lib/dates';
import { useOnlineStatus } from '../../lib/use-online-status';

/** The notification fields the history names, in the order a change lists them. */
const FIELDS = ['title', 'type', 'status', 'description', 'errorcode', 'dueuntil', 'equipmentnodeid', 'progressstarted', 'closed'] as const;
type Field = (typeof FIELDS)[number];
const isField = (name: string): name is Field => (FIELDS as readonly string[]).includes(name);
/**
 * A change that reached the server this much later than the device made it was queued (offline, or waiting behind
 * others): the entry names both times. Below, the two are the same moment to a reader (and device clocks differ).
 */
const SENT_LATER_MS = 60_000;

/** "when – who", with the device's time first for a change that was sent later than it was made. */
function byLine(t: TFunction, change: NotificationChange, who: string): string {
  const time = formatDateTime(change.at);
  if (change.madeAt === null || change.at - change.madeAt < SENT_LATER_MS) return t('notificationDetails.changes.by', { time, who });
  return t('notificationDetails.changes.bySentLater', { made: formatDateTime(change.madeAt), time, who });
}

export function ChangeHistory({ notificationnodeid }: { notificationnodeid: string }) {
  const { t } = useTranslation();
  const online = useOnlineStatus();
  const [state, setState] = useState<{ status: 'idle' | 'loading' | 'failed' } | { status: 'ready'; changes: NotificationChange[] }>({ status: 'idle' });

  const load = async () => {
    setState({ status: 'loading' });
    try {
      setState({ status: 'ready', changes: await api.get(`notifications/${notificationnodeid}/changes`, { schema: notificationChangesSchema }) });
    } catch {
      setState({ status: 'failed' });
    }
  };

  const value = (field: Field, raw: unknown): string => {
    if (raw === null || raw === undefined || raw === '') return t('notificationDetails.changes.empty');
    if (field === 'status') return t(`notification.status.${String(raw)}`, { defaultValue: String(raw) });
    if (field === 'type') return t(`notification.type.${String(raw)}`, { defaultValue: String(raw) });
    if (field === 'dueuntil' && typeof raw === 'number') return formatDate(raw);
    if ((field === 'progressstarted' || field === 'closed') && typeof raw === 'number') return formatDateTime(raw);
    if (field === 'equipmentnodeid') return t('notificationDetails.changes.otherMachine');
    return String(raw);
  };

  return (
    <Box as="section" aria-labelledby="notification-changes" data-testid="notification-changes">
      <Heading id="notification-changes" as="h3" size="md" mb="2">
        {t('notificationDetails.changes.title')}
      </Heading>
      {state.status !== 'ready' && (
        <Stack gap="2" align="start">
          <Text color="fg.muted">{online ? t('notificationDetails.changes.intro') : t('notificationDetails.changes.offline')}</Text>
          {state.status === 'failed' && <Text color="fg.error">{t('notificationDetails.changes.failed')}</Text>}
          <Button variant="outline" minH="11" onClick={() => void load()} disabled={!online} loading={state.status === 'loading'} data-testid="notification-changes-load">
            {t('notificationDetails.changes.show')}
          </Button>
        </Stack>
      )}
      {state.status === 'ready' && state.changes.length === 0 && <Text color="fg.muted">{t('notificationDetails.changes.none')}</Text>}
      {state.status === 'ready' && state.changes.length > 0 && (
        <Stack as="ol" gap="3" listStyleType="none" data-testid="notification-changes-list">
          {state.changes.map((change) => {
            const who = change.author ? `${change.author.givenname} ${change.author.surname}`.trim() : t('notificationDetails.changes.unknownUser');
            const fields = Object.keys(change.changes).filter(isField).sort((x, y) => FIELDS.indexOf(x) - FIELDS.indexOf(y));
            return (
              <Box as="li" key={`${change.version}-${change.at}`} borderLeftWidth="3px" borderColor="border.emphasized" pl="3">
                <Text textStyle="sm" color="fg.muted">
                  {byLine(t, change, who)}
                </Text>
                {fields.map((field) => (
                  <Text key={field} overflowWrap="anywhere">
                    <Text as="span" fontWeight="semibold">
                      {t(`notificationDetails.changes.fields.${field}`)}:
                    </Text>{' '}
                    {t('notificationDetails.changes.fromTo', { from: value(field, change.changes[field]?.old), to: value(field, change.changes[field]?.new) })}
                  </Text>
                ))}
                {change.lostStatus && (
                  <Text>
                    {t('notificationDetails.changes.lostStatus', {
                      status: value('status', change.lostStatus.status),
                      seen: change.lostStatus.previousStatus === null ? t('notificationDetails.changes.empty') : value('status', change.lostStatus.previousStatus),
                    })}
                  </Text>
                )}
              </Box>
            );
          })}
        </Stack>
      )}
    </Box>
  );
}
