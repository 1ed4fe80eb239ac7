/**
 * /login (spec part 2 §4, §5): e-mail and password, checked on blur and on submit; server answers mapped to the
 * spec's texts. On success the guest guard moves on to the requested page or /dashboard.
 *
 * Plain elements with the styles of login-screen.module.css, not Chakra UI: a new device's first page then loads
 * and runs without Chakra's runtime styling, its theme and its components (docs/decisions.md, "The login without
 * the design system"). The looks are the theme's; the semantics are what Chakra's Field, Alert and Button render
 * (a label per input, the error text as its description, aria-invalid, required, a busy button).
 */
import { CircleAlert, Eye, EyeOff, TriangleAlert } from 'lucide-react';
import { useEffect, useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useOutletContext } from 'react-router-dom';
import { PASSWORD_MIN_LENGTH } from '../../../shared/validation';
import { AppLogo } from '../../components/app-logo';
import { useLanguageChoices } from '../../components/use-language-choices';
import { sessionStore, useSessionStore } from '../../stores/session-store';
import { validateLogin, validateLoginField, type LoginErrors, type LoginField } from './login-validation';
import type { LoginFailure } from './session-actions';
import styles from './login-screen.module.css';

// why lazy: logging in needs the API client, zod's schemas and the device key store (Dexie); the login screen's
// first paint needs none of them. They load when the form is first focused, or at the latest on submit.
const loadActions = () => import('./session-actions');

/** What the guest guard hands the login screen (app/guards.tsx); absent when the screen is rendered alone. */
export interface LoginOutletContext {
  /** The login request is under way: the signed-in frame, the next screen and the sync runtime can start loading. */
  onLoginSubmitted?: () => void;
  /** The user started on the form (first focus): what the signed-in screens need most can start loading. */
  onFormStarted?: () => void;
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
    <div className={styles.page}>
      <div className={styles.band} aria-hidden="true" />
      <main className={styles.card}>
        <div className={styles.header}>
          <div className={styles.brand}>
            <AppLogo size={56} />
            <div>
              <p className={styles.name}>{t('app.name')}</p>
              <p className={styles.muted}>{t('app.tagline')}</p>
            </div>
          </div>
          <LoginLanguageSwitch />
        </div>
        <div className={styles.body}>
          <form
            className={styles.form}
            onSubmit={(event) => void onSubmit(event)}
            onFocus={() => {
              void loadActions().catch(() => undefined);
              outlet?.onFormStarted?.();
            }}
            noValidate
            aria-labelledby="login-title"
          >
            <div>
              <h1 id="login-title" className={styles.title}>
                {t('login.title')}
              </h1>
              <p className={`${styles.muted} ${styles.subtitle}`}>{t('login.subtitle')}</p>
            </div>

            {endReason === 'expired' && !failure && (
              <LoginAlert tone="warning" role="status">
                <p className={styles.alertTitle}>{t('login.sessionExpired')}</p>
              </LoginAlert>
            )}
            {failure && (
              <LoginAlert tone="error" role="alert" testId="login-failure">
                <div>
                  <p className={styles.alertTitle}>{t(`login.errors.${failure}`)}</p>
                  {failure === 'accessDenied' && <p>{t('login.errors.accessDeniedHint')}</p>}
                </div>
              </LoginAlert>
            )}

            <LoginField label={t('login.email')} error={errorText('email')}>
              {(field) => (
                <input
                  {...field}
                  ref={emailRef}
                  className={styles.input}
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
                />
              )}
            </LoginField>

            <LoginField label={t('login.password')} error={errorText('password')}>
              {(field) => (
                <div className={styles.inputGroup}>
                  <input
                    {...field}
                    ref={passwordRef}
                    className={`${styles.input} ${styles.withButton}`}
                    name="password"
                    type={showPassword ? 'text' : 'password'}
                    autoComplete="current-password"
                    value={values.password}
                    onChange={(event) => onChange('password', event.target.value)}
                    onBlur={() => onBlur('password')}
                  />
                  <button
                    type="button"
                    className={styles.iconButton}
                    aria-label={t(showPassword ? 'login.hidePassword' : 'login.showPassword')}
                    aria-pressed={showPassword}
                    onClick={() => setShowPassword((shown) => !shown)}
                  >
                    {showPassword ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
                  </button>
                </div>
              )}
            </LoginField>

            <button type="submit" className={styles.submit} disabled={busy} aria-busy={busy || undefined}>
              {busy && <span className={styles.spinner} aria-hidden="true" />}
              {busy ? t('login.submitting') : t('login.submit')}
            </button>
          </form>
        </div>
      </main>
    </div>
  );
}

/** What a field's input gets from LoginField: its id, its error as description, invalid and required. */
interface FieldProps {
  id: string;
  required: true;
  'aria-required': true;
  'aria-invalid': boolean | undefined;
  'aria-describedby': string | undefined;
}

/** A label, the input `children` renders with the given props, and the error text under it. */
function LoginField({ label, error, children }: { label: string; error: string | undefined; children: (field: FieldProps) => ReactNode }) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
        <span className={styles.required} aria-hidden="true">
          *
        </span>
      </label>
      {children({ id, required: true, 'aria-required': true, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? errorId : undefined })}
      {error && (
        <div id={errorId} className={styles.fieldError}>
          {error}
        </div>
      )}
    </div>
  );
}

function LoginAlert({ tone, role, testId, children }: { tone: 'warning' | 'error'; role: 'status' | 'alert'; testId?: string; children: ReactNode }) {
  const Icon = tone === 'warning' ? TriangleAlert : CircleAlert;
  return (
    <div className={`${styles.alert} ${styles[tone]}`} role={role} data-testid={testId}>
      <Icon className={styles.alertIcon} aria-hidden="true" />
      {children}
    </div>
  );
}

/** DE | EN as on the app bar (components/language-switch.tsx), on plain buttons. */
function LoginLanguageSwitch() {
  const { groupLabel, choices } = useLanguageChoices();
  return (
    <div className={styles.languages} role="group" aria-label={groupLabel}>
      {choices.map(({ language, selected, label, choose }) => (
        <button key={language} type="button" className={styles.language} aria-pressed={selected} aria-label={label} lang={language} onClick={choose}>
          {language.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
