// Passkeys only where this address can use them (issue 38). WebAuthn needs a secure context and
// a domain: it refuses an IP address such as 127.0.0.1 ("This is an invalid domain"), and plain
// http anywhere but localhost. There, the buttons that would start a passkey are hidden and the
// page says why (the script tag's data-unavailable, in the page's language), instead of a button
// that does nothing when pressed.
(function () {
  'use strict'
  const script = document.currentScript
  const STARTERS = [
    '#passkey_login', // log in
    'a[href*="/accounts/signup/passkey/"]', // sign up with a passkey
    '#mfa_webauthn_signup', // the passkey made at sign-up
    '#mfa_webauthn_add', // a passkey added in the account's settings
    '#mfa_webauthn_reauthenticate'
  ].join(', ')

  function isAddress (hostname) {
    return /^\d{1,3}(\.\d{1,3}){3}$/.test(hostname) || hostname.startsWith('[')
  }

  function usableHere () {
    return window.isSecureContext && 'PublicKeyCredential' in window && !isAddress(window.location.hostname)
  }

  function explain () {
    const starters = Array.from(document.querySelectorAll(STARTERS))
    if (!starters.length || document.querySelector('[data-passkeys-unavailable]')) return
    const note = document.createElement('p')
    note.className = 'flash__item'
    note.setAttribute('role', 'note')
    note.dataset.passkeysUnavailable = ''
    note.textContent = script.dataset.unavailable
    starters[0].before(note)
    starters.forEach((starter) => { starter.hidden = true })
  }

  if (!usableHere()) document.addEventListener('DOMContentLoaded', explain)
  // A browser that refuses all the same (a policy, an unusual set-up) says so the same way,
  // rather than in the console only (allauth's webauthn.js dispatches its errors so).
  document.addEventListener('allauth.error', (event) => {
    const error = event.detail && event.detail.exception
    if (error && error.name === 'SecurityError') {
      event.preventDefault()
      explain()
    }
  })
})()
