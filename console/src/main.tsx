// The staff's pages (docs/console.md): one bundle, the page chosen by the path — /join/<code>, /signin,
// /console (the account). The server answers every one of these paths with the same page.
import { render } from 'preact';
import { lang } from './i18n.js';
import { AccountPage } from './pages/account.js';
import { JoinPage } from './pages/join.js';
import { SignInPage } from './pages/signin.js';

document.documentElement.lang = lang;
const root = document.getElementById('app')!;
const join = /^\/join\/([A-Za-z0-9_-]{1,200})\/?$/.exec(location.pathname);
if (join) render(<JoinPage code={join[1]} />, root);
else if (location.pathname.startsWith('/signin')) render(<SignInPage />, root);
else render(<AccountPage />, root);
