/**
 * Choosing a machine from the device's mirror: the chosen one with "Ändern", or a search over every machine the
 * user may see (name, Equipment ID, area or pool, plant), at most PICKER_LIMIT listed at once. Works offline. Used
 * by the notification form and by the sync panel, where a report whose machine was deleted is given another one.
 */
import { Box, Button, Field, Flex, HStack, Input, Skeleton, Stack, Text } from '@chakra-ui/react';
import { Search } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { foldText } from '../../shared/domain/suggestions';
import { useEquipmentChoices, type EquipmentChoice } from '../sync/notification-form-mirror';

/** How many machines the picker lists at once (search narrows it). */
const PICKER_LIMIT = 40;

export interface EquipmentPickerProps {
  value: string | null;
  onChange(nodeid: string | null): void;
  error: string | null;
  /** The UI language: the machines' names and places in it. */
  language: string;
  /** A machine not to offer (the one a refused report was written for, gone from the server). */
  exclude?: string;
}

function choiceMatches(choice: EquipmentChoice, words: string[]): boolean {
  const haystack = foldText([choice.name, choice.equipmentid, choice.place, choice.site].filter(Boolean).join(' '));
  return words.every((word) => haystack.includes(word));
}

function choiceLine(choice: EquipmentChoice): string {
  return [choice.place, choice.site].filter(Boolean).join(' · ');
}

/** The machine: the chosen one with "change", or a search over the mirror's machines (name, number, pool/area, plant). */
export function EquipmentPicker({ value, onChange, error, language, exclude }: EquipmentPickerProps) {
  const { t } = useTranslation();
  const choices = useEquipmentChoices(language);
  const [searching, setSearching] = useState(value === null);
  const [query, setQuery] = useState('');
  const searchRef = useRef<HTMLInputElement>(null);
  const chosen = value ? choices?.find((choice) => choice.nodeid === value) : undefined;
  const words = foldText(query).split(/\s+/).filter(Boolean);
  const matches = (choices ?? []).filter((choice) => choice.nodeid !== exclude && choiceMatches(choice, words));

  useEffect(() => {
    if (searching && value !== null) searchRef.current?.focus();
  }, [searching, value]);

  return (
    <Field.Root required invalid={error !== null}>
      <Field.Label>
        {t('equipmentPicker.label')}
        <Field.RequiredIndicator />
      </Field.Label>
      {!searching && value ? (
        <Flex align="center" gap="3" w="full" borderWidth="1px" borderColor="border" borderRadius="l2" p="3" data-testid="equipment-picker-chosen">
          <Stack gap="0" flex="1" minW="0">
            <Text fontWeight="semibold">{chosen?.name ?? (choices ? t('equipmentPicker.unknown') : '…')}</Text>
            {chosen && choiceLine(chosen) && (
              <Text textStyle="sm" color="fg.muted">
                {choiceLine(chosen)}
              </Text>
            )}
          </Stack>
          <Button variant="outline" onClick={() => setSearching(true)} data-testid="equipment-picker-change">
            {t('equipmentPicker.change')}
          </Button>
        </Flex>
      ) : (
        <Stack gap="2" w="full">
          <HStack gap="2">
            <Box position="relative" flex="1">
              <Box position="absolute" left="3" top="50%" transform="translateY(-50%)" color="fg.muted" pointerEvents="none">
                <Search size={18} aria-hidden />
              </Box>
              <Input ref={searchRef} ps="10" size="lg" value={query} onChange={(event) => setQuery(event.target.value)} placeholder={t('equipmentPicker.search')} aria-label={t('equipmentPicker.search')} autoComplete="off" data-testid="equipment-picker-search" />
            </Box>
            {value && (
              <Button variant="ghost" size="lg" onClick={() => setSearching(false)}>
                {t('equipmentPicker.cancel')}
              </Button>
            )}
          </HStack>
          <Box as="ul" listStyleType="none" m="0" p="0" maxH="64" overflowY="auto" borderWidth="1px" borderColor="border" borderRadius="l2" aria-label={t('equipmentPicker.label')} data-testid="equipment-picker-list">
            {!choices && <Skeleton h="11" m="2" />}
            {choices && matches.length === 0 && (
              <Text as="li" p="3" color="fg.muted">
                {t('equipmentPicker.none')}
              </Text>
            )}
            {matches.slice(0, PICKER_LIMIT).map((choice) => (
              <Box as="li" key={choice.nodeid} borderBottomWidth="1px" borderColor="border.muted" _last={{ borderBottomWidth: 0 }}>
                <Button
                  variant="ghost"
                  w="full"
                  h="auto"
                  minH="11"
                  py="2"
                  justifyContent="flex-start"
                  textAlign="start"
                  whiteSpace="normal"
                  aria-pressed={choice.nodeid === value}
                  onClick={() => {
                    onChange(choice.nodeid);
                    setSearching(false);
                    setQuery('');
                  }}
                >
                  <Stack gap="0" align="start">
                    <Text fontWeight="semibold">{choice.name}</Text>
                    {choiceLine(choice) && (
                      <Text textStyle="sm" color="fg.muted" fontWeight="normal">
                        {choiceLine(choice)}
                      </Text>
                    )}
                  </Stack>
                </Button>
              </Box>
            ))}
          </Box>
          {matches.length > PICKER_LIMIT && (
            <Text textStyle="sm" color="fg.muted">
              {t('equipmentPicker.more', { count: matches.length - PICKER_LIMIT })}
            </Text>
          )}
        </Stack>
      )}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}
