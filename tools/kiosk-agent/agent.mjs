#!/usr/bin/env node
// A kiosk agent for an alarm-hub station screen: it connects to the hub beside the screen's page, with
// the same screen token, and turns the page's sleep and wake into commands for the display itself
// (HDMI-CEC on a Raspberry Pi, DPMS on an X desktop). See README.md in this folder.
import { execFile } from 'node:child_process';
import { parseArgs } from 'node:util';
import { io } from 'socket.io-client';

const PRESETS = {
  cec: { sleep: "echo 'standby 0' | cec-client -s -d 1", wake: "echo 'on 0' | cec-client -s -d 1" },
  vcgencmd: { sleep: 'vcgencmd display_power 0', wake: 'vcgencmd display_power 1' },
  dpms: { sleep: 'xset dpms force off', wake: 'xset dpms force on' },
};

const { values } = parseArgs({
  options: {
    url: { type: 'string' },
    token: { type: 'string', default: process.env.SCREEN_TOKEN },
    preset: { type: 'string', default: 'cec' },
    sleep: { type: 'string' },
    wake: { type: 'string' },
  },
});
if (!values.url || !values.token) {
  console.error(
    'usage: node agent.mjs --url http://hub:3000 --token ahs_… [--preset cec|vcgencmd|dpms] [--sleep CMD --wake CMD]',
  );
  process.exit(2);
}
const preset = PRESETS[values.preset];
if (!preset && !(values.sleep && values.wake)) {
  console.error(
    `unknown preset "${values.preset}"; choose ${Object.keys(PRESETS).join(', ')} or give --sleep and --wake`,
  );
  process.exit(2);
}
const commands = { sleep: values.sleep ?? preset.sleep, wake: values.wake ?? preset.wake };

const socket = io(values.url, {
  path: '/socket.io',
  auth: { token: values.token, scheme: 'screen-token', role: 'agent' },
  transports: ['websocket'],
});
socket.on('connect', () => console.log('agent: connected'));
socket.on('connect_error', (err) => {
  console.error(`agent: ${err.message}`);
  if (err.message === 'unauthorized') process.exit(1);
});
socket.on('screen:power', ({ state }) => {
  const command = commands[state];
  if (!command) return;
  console.log(`agent: screen ${state}: ${command}`);
  execFile('sh', ['-c', command], (err, _out, stderr) => {
    if (err) console.error(`agent: "${command}" failed: ${stderr || err.message}`);
  });
});
