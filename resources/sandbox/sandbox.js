/* global document, location, fetch */
// The sandbox page's behaviour. Plain script, no build step: the demo serves this folder as is.
(function () {
  'use strict';

  var nameField = document.getElementById('team-name');
  var summaryBox = document.getElementById('weekly-summary');
  var saveButton = document.getElementById('save');
  var saveStatus = document.getElementById('save-status');
  var newMember = document.getElementById('new-member');
  var addButton = document.getElementById('add-member');
  var memberList = document.getElementById('members');
  var members = [];

  // Served over http by the demo, the state lives on the server (so a new browser continues where the last
  // one saved); opened as a file there is no server, and the page keeps its state to itself.
  var served = location.protocol === 'http:' || location.protocol === 'https:';

  function chosenPlan() {
    var checked = document.querySelector('input[name="plan"]:checked');
    return checked ? checked.value : 'free';
  }

  function currentState() {
    return { teamName: nameField.value, weeklySummary: summaryBox.checked, plan: chosenPlan(), members: members.slice() };
  }

  function showState(state) {
    nameField.value = state.teamName || '';
    summaryBox.checked = Boolean(state.weeklySummary);
    var plan = document.querySelector('input[name="plan"][value="' + (state.plan || 'free') + '"]');
    if (plan) plan.checked = true;
    members = Array.isArray(state.members) ? state.members.slice() : [];
    renderMembers();
    document.title = (state.teamName ? state.teamName + ' · ' : '') + 'Team settings · Acme';
  }

  function renderMembers() {
    memberList.textContent = '';
    members.forEach(function (member) {
      var item = document.createElement('li');
      item.textContent = member;
      item.setAttribute('data-initial', member.charAt(0).toUpperCase());
      memberList.appendChild(item);
    });
  }

  function send(state) {
    if (!served) return Promise.resolve();
    return fetch('/api/settings', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(state),
    }).catch(function () {});
  }

  saveButton.addEventListener('click', function () {
    var state = currentState();
    saveStatus.textContent = 'Saving…';
    send(state).then(function () {
      saveStatus.textContent = '✓ Saved';
      document.title = (state.teamName ? state.teamName + ' · ' : '') + 'Team settings · Acme';
    });
  });

  function addMember() {
    var name = newMember.value.trim();
    if (name === '') return;
    members.push(name);
    newMember.value = '';
    renderMembers();
    send(currentState());
  }

  addButton.addEventListener('click', addMember);
  newMember.addEventListener('keydown', function (event) {
    if (event.key === 'Enter') addMember();
  });
  [nameField, summaryBox].forEach(function (control) {
    control.addEventListener('input', function () {
      saveStatus.textContent = '';
    });
  });

  if (served) {
    fetch('/api/settings')
      .then(function (response) {
        return response.ok ? response.json() : {};
      })
      .then(showState)
      .catch(function () {});
  }
})();
