/**
 * /login (spec part 2 §4, §5): e-mail and password, checked on blur and on submit; server answers mapped to the
 * spec's texts. On success the guest guard moves on to the requested page or /dashboard.
 */
import { Alert, Box, Button, Card, Field, Flex, Heading, HStack, IconButton, Input, InputGroup, Stack, Text } from '@chakra-ui/react';
import { Eye, EyeOff } from 'lucide-react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH } from '../../../shared/validation';
import { AppLogo } from '../../components/app-logo';
import { LanguageSwitch } from '../../components/language-switch';
import { sessionStore, useSessionStore } from '../../stores/session-store';
import { validateLogin, validateLoginField, type LoginErrors, type LoginField } from './login-validation';
import type { LoginFailure } from './session-actions';

// why lazy: logging in needs the API client, zod's schemas and the device key store (Dexie); the login screen's
// first paint needs none of them. They load when the form is first focused, or at the latest on submit.
const loadActions = () => import('./session-actions');

/** What the guest guard hands the login screen (app/guards.tsx); absent when the screen is rendered alone. */
export interface LoginOutletContext {
  /** The login request is under way: the signed-in frame, the next screen and the sync runtime can start loading. */
  onLoginSubmitted?: () => void;
}

export function LoginScreen() {
  const { t } = useTranslation();
  const endReason = useSessionStore((state) => state.endReason);
  const [values, setValues] = useState<Record<LoginField, string>>({ email: '', password: '' });
  const [errors, setErrors] = useState<LoginErrors>({});
  const [failure, setFailure] = useState<LoginFailure | null>(null);
  const [busy, setBusy] = useState(false);
  const [showPassword, setShowPassword] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const outlet = useOutletContext<LoginOutletContext | undefined>();

  useEffect(() => {
    // A finished logout needs no notice and must not keep steering the next guest's redirects.
    if (endReason === 'logout') sessionStore.setState({ endReason: null });
  }, [endReason]);

  const onChange = (field: LoginField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    // Once a field shows an error, re-check while typing so the message disappears as soon as it is fixed.
    if (errors[field]) setErrors((current) => ({ ...current, [field]: validateLoginField(field, value) }));
  };

  const onBlur = (field: LoginField) => {
    // An untouched empty field is not an error yet on blur; it becomes one on submit.
    if (values[field] === '' && !errors[field]) return;
    setErrors((current) => ({ ...current, [field]: validateLoginField(field, values[field]) }));
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const found = validateLogin(values);
    setErrors(found);
    if (found.email || found.password) {
      (found.email ? emailRef : passwordRef).current?.focus();
      return;
    }
    setFailure(null);
    setBusy(true);
    let actions: Awaited<ReturnType<typeof loadActions>> | undefined;
    try {
      actions = await loadActions();
      await actions.login(values.email, values.password, outlet?.onLoginSubmitted);
      // The guest guard now redirects; this component unmounts.
    } catch (error) {
      // Without the actions module (its chunk could not be loaded) the server was not reachable either.
      setFailure(actions ? actions.loginFailure(error) : 'offline');
      setBusy(false);
    }
  };

  const errorText = (field: LoginField) => {
    const error = errors[field];
    return error ? t(`login.errors.${error}`, { min: PASSWORD_MIN_LENGTH }) : undefined;
  };

  return (
    <Flex minH="100dvh" direction="column" align="center" justify="center" px="4" py="10" bg="bg.canvas" position="relative">
      <Box position="absolute" insetX="0" top="0" h="40%" bg="brand.solid" aria-hidden="true" />
      <Card.Root as="main" w="full" maxW="lg" boxShadow="lg" borderRadius="l3" variant="elevated" position="relative">
        <Card.Header pb="2">
          <Flex justify="space-between" align="flex-start" gap="4">
            <HStack gap="4">
              <AppLogo size={56} />
              <Box>
                <Text fontSize="2xl" fontWeight="bold" letterSpacing="tight" color="brand.fg">
                  {t('app.name')}
                </Text>
                <Text color="fg.muted">{t('app.tagline')}</Text>
              </Box>
            </HStack>
            <LanguageSwitch />
          </Flex>
        </Card.Header>
        <Card.Body>
          <form onSubmit={(event) => void onSubmit(event)} onFocus={() => void loadActions().catch(() => undefined)} noValidate aria-labelledby="login-title">
          <Stack gap="5">
            <Box>
              <Heading id="login-title" as="h1" size="xl">
                {t('login.title')}
              </Heading>
              <Text color="fg.muted" mt="1">
                {t('login.subtitle')}
              </Text>
            </Box>

            {endReason === 'expired' && !failure && (
              <Alert.Root status="warning" role="status">
                <Alert.Indicator />
                <Alert.Title>{t('login.sessionExpired')}</Alert.Title>
              </Alert.Root>
            )}
            {failure && (
              <Alert.Root status="error" role="alert" data-testid="login-failure">
                <Alert.Indicator />
                <Alert.Content>
                  <Alert.Title>{t(`login.errors.${failure}`)}</Alert.Title>
                  {failure === 'accessDenied' && <Alert.Description>{t('login.errors.accessDeniedHint')}</Alert.Description>}
                </Alert.Content>
              </Alert.Root>
            )}

            <Field.Root invalid={Boolean(errors.email)} required>
              <Field.Label fontSize="md">
                {t('login.email')}
                <Field.RequiredIndicator />
              </Field.Label>
              <Input
                ref={emailRef}
                name="email"
                type="email"
                inputMode="email"
                autoComplete="username"
                autoCapitalize="none"
                spellCheck={false}
                placeholder={t('login.emailPlaceholder')}
                value={values.email}
                onChange={(event) => onChange('email', event.target.value)}
                onBlur={() => onBlur('email')}
                size="xl"
              />
              <Field.ErrorText fontSize="sm">{errorText('email')}</Field.ErrorText>
            </Field.Root>

            <Field.Root invalid={Boolean(errors.password)} required>
              <Field.Label fontSize="md">
                {t('login.password')}
                <Field.RequiredIndicator />
              </Field.Label>
              <InputGroup
                endElementProps={{ pe: '1' }}
                endElement={
                  <IconButton
                    variant="ghost"
                    size="lg"
                    aria-label={t(showPassword ? 'login.hidePassword' : 'login.showPassword')}
                    aria-pressed={showPassword}
                    onClick={() => setShowPassword((shown) => !shown)}
                  >
                    {showPassword ? <EyeOff /> : <Eye />}
                  </IconButton>
                }
              >
                <Input
                  ref={passwordRef}
                  name="password"
                  type={showPassword ? 'text' : 'password'}
                  autoComplete="current-password"
                  value={values.password}
                  onChange={(event) => onChange('password', event.target.value)}
                  onBlur={() => onBlur('password')}
                  size="xl"
                />
              </InputGroup>
              <Field.ErrorText fontSize="sm">{errorText('password')}</Field.ErrorText>
            </Field.Root>

            <Button type="submit" size="xl" w="full" loading={busy} loadingText={t('login.submitting')} mt="1">
              {t('login.submit')}
            </Button>
          </Stack>
          </form>
        </Card.Body>
      </Card.Root>
    </Flex>
  );
}
